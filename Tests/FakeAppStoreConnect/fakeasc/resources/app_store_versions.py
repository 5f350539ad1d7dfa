"""App Store versions of an app, as much as review needs: read through the API, created only through the control
API (the seed document's `appStoreVersions`). Review moves them: a submitted one is `WAITING_FOR_REVIEW`, an approved
one `READY_FOR_DISTRIBUTION` (released after approval), a cancelled one `DEVELOPER_REJECTED`.

Both state attributes are kept: `appVersionState` and the deprecated `appStoreState`, which names a few states
differently (`READY_FOR_SALE` for `READY_FOR_DISTRIBUTION`, `PROCESSING_FOR_APP_STORE` for
`PROCESSING_FOR_DISTRIBUTION`).
"""

import datetime

ROUTES = [
    ("GET", "/v1/apps/{id}/appStoreVersions", "apps_appStoreVersions_getToManyRelated", "get_app_store_versions"),
    ("GET", "/v1/appStoreVersions/{id}", "appStoreVersions_getInstance", "get_instance"),
]

PLATFORMS = ("IOS", "MAC_OS", "TV_OS", "VISION_OS")
# AppVersionState, as the document lists it.
APP_VERSION_STATES = (
    "ACCEPTED", "DEVELOPER_REJECTED", "IN_REVIEW", "INVALID_BINARY", "METADATA_REJECTED", "PENDING_APPLE_RELEASE",
    "PENDING_DEVELOPER_RELEASE", "PREPARE_FOR_SUBMISSION", "PROCESSING_FOR_DISTRIBUTION", "READY_FOR_DISTRIBUTION",
    "READY_FOR_REVIEW", "REJECTED", "REPLACED_WITH_NEW_VERSION", "WAITING_FOR_EXPORT_COMPLIANCE", "WAITING_FOR_REVIEW")
# The deprecated appStoreState of each appVersionState where the two enums name it differently.
APP_STORE_STATE = {"PROCESSING_FOR_DISTRIBUTION": "PROCESSING_FOR_APP_STORE", "READY_FOR_DISTRIBUTION": "READY_FOR_SALE"}
# A version App Store Connect lets you change and add to a submission.
EDITABLE_APP_VERSION_STATES = ("PREPARE_FOR_SUBMISSION", "DEVELOPER_REJECTED", "REJECTED", "METADATA_REJECTED",
                               "READY_FOR_REVIEW")


class AppStoreVersions:
    """Mixin of the service."""

    def app_store_versions(self, app):
        return self.store.kid_recs(app, "appStoreVersions", "appStoreVersions")

    def get_app_store_versions(self, c):
        app = self.store.need("apps", c.id)
        return 200, self.page(self.filtered(self.app_store_versions(app), c.q), c.q, c.path)

    def new_app_store_version(self, app, platform="IOS", version_string="1.0", state="PREPARE_FOR_SUBMISSION"):
        if platform not in PLATFORMS:
            raise ValueError("platform %r is not one of %s" % (platform, ", ".join(PLATFORMS)))
        if state not in APP_VERSION_STATES:
            raise ValueError("appVersionState %r is not one of %s" % (state, ", ".join(APP_VERSION_STATES)))
        rec = {"type": "appStoreVersions", "id": self.store.new_id(False),
               "attributes": {"platform": platform, "versionString": str(version_string), "releaseType": "AFTER_APPROVAL",
                              "reviewType": "APP_STORE", "createdDate": datetime.datetime.now(
                                  datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000+00:00")},
               "rels": {}}
        self.set_app_version_state(rec, state)
        return self.store.add_kid(app, "appStoreVersions", rec)

    @staticmethod
    def set_app_version_state(rec, state):
        rec["attributes"]["appVersionState"] = state
        rec["attributes"]["appStoreState"] = APP_STORE_STATE.get(state, state)
