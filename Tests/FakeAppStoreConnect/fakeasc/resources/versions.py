"""Versions and their localizations, for in-app purchases, subscriptions and subscription groups.

Apple's 4.4.1 documentation describes a version as the draft container of a product's localized metadata, one per
review cycle: created with POST, starting from a copy of the latest version's localizations; a new one can't be
created while another is still on its way through review.
"""

from ..core.errors import entity_error, state_error
from ..reference import LOCALES, ref

ROUTES = [
    ("GET", "/v1/subscriptionGroups/{id}/versions", "subscriptionGroups_versions_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionGroupVersions/{id}/localizations",
     "subscriptionGroupVersions_localizations_getToManyRelated", "get_kids"),
    ("GET", "/v2/inAppPurchases/{id}/versions", "inAppPurchasesV2_versions_getToManyRelated", "get_kids"),
    ("GET", "/v1/inAppPurchaseVersions/{id}/localizations", "inAppPurchaseVersions_localizations_getToManyRelated",
     "get_kids"),
    ("GET", "/v1/subscriptions/{id}/versions", "subscriptions_versions_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionVersions/{id}/localizations", "subscriptionVersions_localizations_getToManyRelated",
     "get_kids"),
    ("POST", "/v1/inAppPurchaseVersions", "inAppPurchaseVersions_createInstance", "create_version"),
    ("POST", "/v2/inAppPurchaseLocalizations", "inAppPurchaseLocalizationsV2_createInstance", "create_localization"),
    ("PATCH", "/v2/inAppPurchaseLocalizations/{id}", "inAppPurchaseLocalizationsV2_updateInstance",
     "update_localization"),
    ("DELETE", "/v2/inAppPurchaseLocalizations/{id}", "inAppPurchaseLocalizationsV2_deleteInstance",
     "delete_localization"),
    ("POST", "/v1/subscriptionGroupVersions", "subscriptionGroupVersions_createInstance", "create_version"),
    ("POST", "/v2/subscriptionGroupLocalizations", "subscriptionGroupLocalizationsV2_createInstance",
     "create_localization"),
    ("PATCH", "/v2/subscriptionGroupLocalizations/{id}", "subscriptionGroupLocalizationsV2_updateInstance",
     "update_localization"),
    ("DELETE", "/v2/subscriptionGroupLocalizations/{id}", "subscriptionGroupLocalizationsV2_deleteInstance",
     "delete_localization"),
    ("POST", "/v1/subscriptionVersions", "subscriptionVersions_createInstance", "create_version"),
    ("POST", "/v2/subscriptionLocalizations", "subscriptionLocalizationsV2_createInstance", "create_localization"),
    ("PATCH", "/v2/subscriptionLocalizations/{id}", "subscriptionLocalizationsV2_updateInstance", "update_localization"),
    ("DELETE", "/v2/subscriptionLocalizations/{id}", "subscriptionLocalizationsV2_deleteInstance", "delete_localization"),
]

# version type -> (owner type, relationship naming the owner, localization type)
VERSION_TYPES = {"inAppPurchaseVersions": ("inAppPurchases", "inAppPurchase", "inAppPurchaseLocalizations"),
                 "subscriptionVersions": ("subscriptions", "subscription", "subscriptionLocalizations"),
                 "subscriptionGroupVersions": ("subscriptionGroups", "subscriptionGroup", "subscriptionGroupLocalizations")}
VERSION_OF_LOCALIZATION = {loc: version for version, (_, _, loc) in VERSION_TYPES.items()}
# A new version can't be created while another one is still on its way through review.
OPEN_VERSION_STATES = {"PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "REJECTED",
                       "DEVELOPER_REJECTED"}
EDITABLE_VERSION_STATES = {"PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "REJECTED", "DEVELOPER_REJECTED"}
# Length limits from the project's reference facts (display name 35, description 55, group name 75, app name 30).
LOCALIZATION_LIMITS = {"inAppPurchaseLocalizations": {"name": 35, "description": 55},
                       "subscriptionLocalizations": {"name": 35, "description": 55},
                       "subscriptionGroupLocalizations": {"name": 75, "customAppName": 30}}


class Versions:
    def create_version(self, c):
        data = c.body["data"]
        parent_type, rel, _ = VERSION_TYPES[data["type"]]
        parent = self.related_need(data, rel, parent_type)
        for v in self.store.kid_recs(parent, "versions"):
            if v["attributes"]["state"] in OPEN_VERSION_STATES:
                raise state_error("Version %d is still %s; a new version can be created once it is approved"
                                  % (v["attributes"]["version"], v["attributes"]["state"]),
                                  "/data/relationships/%s" % rel)
        version = self.new_version(data["type"], parent)
        self.metadata_changed(parent)
        return self.created(version, c)

    def new_version(self, type_, parent, state="PREPARE_FOR_SUBMISSION"):
        versions = self.store.kid_recs(parent, "versions")
        _, rel, loc_type = VERSION_TYPES[type_]
        rec = {"type": type_, "id": self.store.new_id(False),
               "attributes": {"version": len(versions) + 1, "state": state},
               "rels": {rel: {"data": ref(parent["type"], parent["id"])}}}
        self.store.add_kid(parent, "versions", rec)
        if versions:  # a new version starts from the latest version's localized metadata
            for loc in self.store.kid_recs(versions[-1], "localizations"):
                self.new_localization(loc_type, rec, {k: v for k, v in loc["attributes"].items() if k != "state"})
        return rec

    def new_localization(self, type_, version, a):
        rec = {"type": type_, "id": self.store.new_id(False),
               "attributes": dict(a, state="PREPARE_FOR_SUBMISSION"), "rels": {}}
        return self.store.add_kid(version, "localizations", rec)

    @staticmethod
    def check_version_editable(version):
        if version["attributes"]["state"] not in EDITABLE_VERSION_STATES:
            raise state_error("Version %d is %s and can't be edited; create a new version"
                              % (version["attributes"]["version"], version["attributes"]["state"]),
                              "/data/relationships/version")

    @staticmethod
    def check_localization_lengths(type_, a):
        for field, most in LOCALIZATION_LIMITS[type_].items():
            if len(a.get(field) or "") > most:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                                   "'%s' can't be longer than %d characters" % (field, most),
                                   "/data/attributes/%s" % field)

    def create_localization(self, c):
        data = c.body["data"]
        a = data["attributes"]
        version = self.related_need(data, "version", VERSION_OF_LOCALIZATION[data["type"]])
        self.check_version_editable(version)
        if a["locale"] not in LOCALES:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "'%s' is not a supported locale" % a["locale"],
                               "/data/attributes/locale")
        if any(l["attributes"]["locale"] == a["locale"] for l in self.store.kid_recs(version, "localizations")):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                               "This version already has a localization for '%s'" % a["locale"],
                               "/data/attributes/locale")
        self.check_localization_lengths(data["type"], a)
        rec = self.new_localization(data["type"], version, dict(a))
        self.metadata_changed(version)
        return self.created(rec, c)

    def localization_and_version(self, c):
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        return rec, self.store.parent(rec)

    def update_localization(self, c):
        self.check_update_id(c)
        rec, version = self.localization_and_version(c)
        self.check_version_editable(version)
        a = c.body["data"].get("attributes") or {}
        self.check_localization_lengths(rec["type"], a)
        for k, v in a.items():
            if v is not None or k != "name":
                rec["attributes"][k] = v
        return self.updated(rec, c)

    def delete_localization(self, c):
        rec, version = self.localization_and_version(c)
        self.check_version_editable(version)
        self.store.remove(rec)
        self.metadata_changed(version)
        return 204, None
