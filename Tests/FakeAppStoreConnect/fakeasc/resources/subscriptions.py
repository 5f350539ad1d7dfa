"""Subscription groups, auto-renewable subscriptions and their plan availabilities."""

from ..core.errors import ApiError, entity_error
from ..reference import ref

ROUTES = [
    ("GET", "/v1/subscriptionGroups/{id}/subscriptions", "subscriptionGroups_subscriptions_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/planAvailabilities", "subscriptions_planAvailabilities_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionPlanAvailabilities/{id}/availableTerritories",
     "subscriptionPlanAvailabilities_availableTerritories_getToManyRelated", "get_available_territories"),
    ("POST", "/v1/subscriptionGroups", "subscriptionGroups_createInstance", "create_group"),
    ("PATCH", "/v1/subscriptionGroups/{id}", "subscriptionGroups_updateInstance", "update_group"),
    ("POST", "/v1/subscriptions", "subscriptions_createInstance", "create_subscription"),
    ("PATCH", "/v1/subscriptions/{id}", "subscriptions_updateInstance", "update_subscription"),
    ("POST", "/v1/subscriptionPlanAvailabilities", "subscriptionPlanAvailabilities_createInstance",
     "create_plan_availability"),
    ("PATCH", "/v1/subscriptionPlanAvailabilities/{id}", "subscriptionPlanAvailabilities_updateInstance",
     "update_plan_availability"),
]


class Subscriptions:
    # -- groups
    def create_group(self, c):
        data = c.body["data"]
        app = self.related_need(data, "app", "apps")
        self.check_group_name(app, data["attributes"]["referenceName"])
        return self.created(self.new_group(app, data["attributes"]["referenceName"]), c)

    def check_group_name(self, app, name, exclude=None):
        if len(name) > 64:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The reference name can't be longer than 64 characters",
                               "/data/attributes/referenceName")
        for g in self.store.kid_recs(app, "subscriptionGroups", "subscriptionGroups"):
            if g["id"] != exclude and g["attributes"]["referenceName"] == name:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                                   "A subscription group named '%s' already exists" % name,
                                   "/data/attributes/referenceName")

    def new_group(self, app, name):
        rec = {"type": "subscriptionGroups", "id": self.store.new_id(True), "attributes": {"referenceName": name},
               "rels": {}}
        self.store.add_kid(app, "subscriptionGroups", rec)
        if self.settings["autoCreateVersions"]:
            self.new_version("subscriptionGroupVersions", rec)
        return rec

    def update_group(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptionGroups", c.id)
        name = (c.body["data"].get("attributes") or {}).get("referenceName")
        if name is not None:
            self.check_group_name(self.store.app_of(rec), name, rec["id"])
            rec["attributes"]["referenceName"] = name
        return self.updated(rec, c)

    # -- subscriptions
    def create_subscription(self, c):
        data = c.body["data"]
        a = data["attributes"]
        group = self.related_need(data, "group", "subscriptionGroups")
        app = self.store.app_of(group)
        self.check_product_id(app, a["productId"])
        self.check_reference_name(app, a["name"])
        self.check_review_note(a)
        count = len(self.store.kid_ids(group, "subscriptions"))
        level = a.get("groupLevel")
        if level is not None and not 1 <= level <= count + 1:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "groupLevel must be between 1 and %d" % (count + 1),
                               "/data/attributes/groupLevel")
        return self.created(self.new_subscription(group, a), c)

    def new_subscription(self, group, a, state="MISSING_METADATA"):
        app = self.store.app_of(group)
        count = len(self.store.kid_ids(group, "subscriptions"))
        rec = {"type": "subscriptions", "id": self.store.new_id(True),
               "attributes": {"name": a["name"], "productId": a["productId"],
                              "familySharable": bool(a.get("familySharable")), "state": state,
                              "subscriptionPeriod": a.get("subscriptionPeriod"), "reviewNote": a.get("reviewNote"),
                              "groupLevel": a.get("groupLevel") or count + 1},
               "rels": {"group": {"data": ref("subscriptionGroups", group["id"])}}}
        self.product_ids_in_app(app).add(a["productId"])
        self.store.add_kid(group, "subscriptions", rec)
        if self.settings["autoCreateVersions"]:
            self.new_version("subscriptionVersions", rec)
        return rec

    def update_subscription(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptions", c.id)
        if c.body["data"].get("relationships") or c.body.get("included"):
            raise ApiError(500, "FAKE_UNSUPPORTED", "The fake does not implement this request",
                           "Creating offers or prices through PATCH /v1/subscriptions is not implemented by the fake")
        a = c.body["data"].get("attributes") or {}
        self.check_subscription_attributes(rec, a)
        for k in ("name", "familySharable", "subscriptionPeriod", "reviewNote", "groupLevel"):
            if k in a and (a[k] is not None or k == "reviewNote"):
                rec["attributes"][k] = a[k]
        return self.updated(rec, c)

    def check_subscription_attributes(self, rec, a):
        app = self.store.app_of(rec)
        if a.get("name") is not None:
            self.check_reference_name(app, a["name"], rec["id"])
        self.check_review_note(a)
        self.check_family_sharing(rec, a, True)
        period = a.get("subscriptionPeriod")
        if period is not None and rec["attributes"].get("subscriptionPeriod") not in (None, period):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The subscription duration can't be changed once set",
                               "/data/attributes/subscriptionPeriod")
        level = a.get("groupLevel")
        group = self.store.parent(rec)
        if level is not None and not 1 <= level <= len(self.store.kid_ids(group, "subscriptions")):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "groupLevel is out of range",
                               "/data/attributes/groupLevel")

    # -- plan availabilities
    def create_plan_availability(self, c):
        data = c.body["data"]
        sub = self.related_need(data, "subscription", "subscriptions")
        ids = self.territories_of(data, "availableTerritories")
        a = data["attributes"]
        for old in self.store.kid_recs(sub, "planAvailabilities"):
            if old["attributes"]["planType"] == a["planType"]:
                self.store.remove(old)  # one availability per plan type: a new one replaces it
        rec = {"type": "subscriptionPlanAvailabilities", "id": self.store.new_id(False),
               "attributes": {"availableInNewTerritories": bool(a.get("availableInNewTerritories")),
                              "planType": a["planType"]},
               "rels": {"availableTerritories": {"data": [ref("territories", t) for t in ids]}}}
        self.store.add_kid(sub, "planAvailabilities", rec)
        return self.created(rec, c)

    def update_plan_availability(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptionPlanAvailabilities", c.id)
        data = c.body["data"]
        a = data.get("attributes") or {}
        if a.get("availableInNewTerritories") is not None:
            rec["attributes"]["availableInNewTerritories"] = a["availableInNewTerritories"]
        if "availableTerritories" in (data.get("relationships") or {}):
            rec["rels"]["availableTerritories"] = {
                "data": [ref("territories", t) for t in self.territories_of(data, "availableTerritories")]}
        return self.updated(rec, c)
