"""Review submissions: a submission per app and platform, its items (here background-asset versions, in-app
purchase versions and subscription versions), submitted or cancelled with a PATCH.

- `POST /v1/reviewSubmissions` (`platform`, app): `READY_FOR_REVIEW`; an app has one open submission per platform
  (`READY_FOR_REVIEW`, `WAITING_FOR_REVIEW`, `IN_REVIEW`, `UNRESOLVED_ISSUES`): another is `409 STATE_ERROR`.
- `POST /v1/reviewSubmissionItems`: only to a submission `READY_FOR_REVIEW`; exactly one item relationship; a
  background-asset version must be `COMPLETE`, and each resource is in a submission once (409).
- `PATCH /v1/reviewSubmissions/{id}`: `submitted: true` needs at least one item and moves it to
  `WAITING_FOR_REVIEW`; `canceled: true` moves an unsubmitted one to `CANCELING` (and frees its items).
"""

import datetime

from ..core.errors import entity_error, state_error

ROUTES = [
    ("POST", "/v1/reviewSubmissions", "reviewSubmissions_createInstance", "create_review_submission"),
    ("PATCH", "/v1/reviewSubmissions/{id}", "reviewSubmissions_updateInstance", "update_review_submission"),
    ("POST", "/v1/reviewSubmissionItems", "reviewSubmissionItems_createInstance", "create_review_submission_item"),
]

OPEN = ("READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "UNRESOLVED_ISSUES")
ITEM_TYPES = {"backgroundAssetVersion": "backgroundAssetVersions", "inAppPurchaseVersion": "inAppPurchaseVersions",
              "subscriptionVersion": "subscriptionVersions", "appStoreVersion": "appStoreVersions"}


class ReviewSubmissions:
    """Mixin of the service."""

    def create_review_submission(self, c):
        data = c.body["data"]
        app = self.related_need(data, "app", "apps")
        platform = (data.get("attributes") or {}).get("platform") or "IOS"
        for other in self.store.kid_recs(app, "reviewSubmissions", "reviewSubmissions"):
            if other["attributes"]["platform"] == platform and other["attributes"]["state"] in OPEN:
                raise state_error("The app already has a review submission in progress for %s" % platform)
        rec = {"type": "reviewSubmissions", "id": self.store.new_id(False),
               "attributes": {"platform": platform, "state": "READY_FOR_REVIEW"}, "rels": {}}
        self.store.add_kid(app, "reviewSubmissions", rec)
        return self.created(rec, c)

    def create_review_submission_item(self, c):
        data = c.body["data"]
        submission = self.related_need(data, "reviewSubmission", "reviewSubmissions")
        if submission["attributes"]["state"] != "READY_FOR_REVIEW":
            raise state_error("Items can be added only to a submission that is ready for review")
        rels = {k: v for k, v in (data.get("relationships") or {}).items() if k != "reviewSubmission"}
        if len(rels) != 1:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "An item names exactly one resource to review",
                               "/data/relationships")
        name = next(iter(rels))
        if name not in ITEM_TYPES:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "The fake does not review %s items" % name,
                               "/data/relationships/" + name)
        target = self.related_need(data, name, ITEM_TYPES[name])
        if name == "backgroundAssetVersion":
            self.advance_background_asset_version(target, read=False)
            if target["attributes"]["state"] != "COMPLETE":
                raise state_error("Version %s of the asset pack is %s; only a COMPLETE version can be reviewed"
                                  % (target["attributes"]["version"], target["attributes"]["state"]),
                                  "/data/relationships/backgroundAssetVersion")
        for sub in self.store.res.get("reviewSubmissions", {}).values():
            if sub["attributes"]["state"] == "CANCELING":
                continue
            for item in self.store.kid_recs(sub, "items"):
                if item["rels"].get(name, {}).get("data", {}).get("id") == target["id"]:
                    raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                                       "This %s is already in a review submission" % name, "/data/relationships/" + name)
        rec = {"type": "reviewSubmissionItems", "id": self.store.new_id(False),
               "attributes": {"state": "READY_FOR_REVIEW"},
               "rels": {name: {"data": {"type": ITEM_TYPES[name], "id": target["id"]}}}}
        self.store.add_kid(submission, "items", rec)
        return self.created(rec, c)

    def update_review_submission(self, c):
        self.check_update_id(c)
        rec = self.store.need("reviewSubmissions", c.id)
        a = c.body["data"].get("attributes") or {}
        if a.get("canceled"):
            if rec["attributes"]["state"] not in ("READY_FOR_REVIEW", "WAITING_FOR_REVIEW"):
                raise state_error("A submission %s cannot be cancelled" % rec["attributes"]["state"])
            rec["attributes"]["state"] = "CANCELING"
        elif a.get("submitted"):
            if rec["attributes"]["state"] != "READY_FOR_REVIEW":
                raise state_error("This submission has already been submitted")
            if not self.store.kid_recs(rec, "items"):
                raise state_error("A submission needs at least one item")
            rec["attributes"]["state"] = "WAITING_FOR_REVIEW"
            rec["attributes"]["submittedDate"] = datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%S.000+00:00")
        return self.updated(rec, c)
