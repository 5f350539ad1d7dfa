"""Review submissions: a submission per app and platform, its items (App Store versions, background-asset versions,
in-app purchase versions and subscription versions), submitted or cancelled with a PATCH, and App Review's answer
given through the control API (`POST /__fake/review`).

- `POST /v1/reviewSubmissions` (`platform`, app): `READY_FOR_REVIEW`; an app has one open submission per platform
  (`READY_FOR_REVIEW`, `WAITING_FOR_REVIEW`, `IN_REVIEW`, `UNRESOLVED_ISSUES`): another is `409 STATE_ERROR`.
- `POST /v1/reviewSubmissionItems`: only to a submission `READY_FOR_REVIEW`; exactly one item relationship, naming a
  resource of the submission's app; each resource is in a submission once. A background-asset version must be
  `COMPLETE` (it gets its App Store release); an App Store version editable and of the submission's platform, one per
  submission; an in-app purchase or subscription version the product's latest, still editable, of a product
  `READY_TO_SUBMIT` (or a new version of a product approved before).
- `PATCH /v1/reviewSubmissions/{id}`: `submitted: true` needs an item, and an App Store version with the app's first
  in-app purchase or subscription (App Store Connect Help); everything in it moves to `WAITING_FOR_REVIEW`.
  `canceled: true` moves it to `CANCELING`, its items to `REMOVED`, and what was waiting back to where it was.
"""

import datetime

from ..core.errors import entity_error, state_error
from .app_store_versions import EDITABLE_APP_VERSION_STATES
from .product_states import APPROVED_OR_LATER, NOUN
from .versions import EDITABLE_VERSION_STATES

ROUTES = [
    ("POST", "/v1/reviewSubmissions", "reviewSubmissions_createInstance", "create_review_submission"),
    ("PATCH", "/v1/reviewSubmissions/{id}", "reviewSubmissions_updateInstance", "update_review_submission"),
    ("POST", "/v1/reviewSubmissionItems", "reviewSubmissionItems_createInstance", "create_review_submission_item"),
]

OPEN = ("READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "UNRESOLVED_ISSUES")
ITEM_TYPES = {"backgroundAssetVersion": "backgroundAssetVersions", "inAppPurchaseVersion": "inAppPurchaseVersions",
              "subscriptionVersion": "subscriptionVersions", "appStoreVersion": "appStoreVersions"}
PRODUCT_VERSIONS = ("inAppPurchaseVersion", "subscriptionVersion")
FIRST_PRODUCT_RULE = ("The app's first in-app purchase or subscription must be submitted with a new app version: "
                      "add an App Store version (an appStoreVersion item) to this submission")
# The control API's outcomes: where a submission in review goes, and what its items become.
OUTCOMES = ("approve", "inReview")


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000+00:00")


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
        pointer = "/data/relationships/" + name
        if name not in ITEM_TYPES:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "The fake does not review %s items" % name, pointer)
        target = self.related_need(data, name, ITEM_TYPES[name])
        if (self.store.app_of(target) or {}).get("id") != self.store.app_of(submission)["id"]:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "The %s belongs to another app" % name, pointer)
        if name == "backgroundAssetVersion":
            self.advance_background_asset_version(target, read=False)
            if target["attributes"]["state"] != "COMPLETE":
                raise state_error("Version %s of the asset pack is %s; only a COMPLETE version can be reviewed"
                                  % (target["attributes"]["version"], target["attributes"]["state"]), pointer)
        elif name == "appStoreVersion":
            self.check_app_version_item(submission, target, pointer)
        else:
            self.check_product_version_item(target, pointer)
        for sub in self.store.res.get("reviewSubmissions", {}).values():
            if sub["attributes"]["state"] == "CANCELING":
                continue
            for item in self.store.kid_recs(sub, "items"):
                if item["rels"].get(name, {}).get("data", {}).get("id") == target["id"]:
                    raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                                       "This %s is already in a review submission" % name, pointer)
        rec = {"type": "reviewSubmissionItems", "id": self.store.new_id(False),
               "attributes": {"state": "READY_FOR_REVIEW"},
               "rels": {name: {"data": {"type": ITEM_TYPES[name], "id": target["id"]}}}}
        self.store.add_kid(submission, "items", rec)
        if name == "backgroundAssetVersion":
            self.app_store_release(target)
        return self.created(rec, c)

    def check_app_version_item(self, submission, version, pointer):
        a = version["attributes"]
        if a["platform"] != submission["attributes"]["platform"]:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "Version %s is for %s; the submission is for %s"
                               % (a["versionString"], a["platform"], submission["attributes"]["platform"]), pointer)
        if a["appVersionState"] not in EDITABLE_APP_VERSION_STATES:
            raise state_error("Version %s is %s; only a version still being prepared (%s) can be submitted"
                              % (a["versionString"], a["appVersionState"], ", ".join(EDITABLE_APP_VERSION_STATES)),
                              pointer)
        if any("appStoreVersion" in item["rels"] for item in self.store.kid_recs(submission, "items")):
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "The submission already holds an App Store version",
                               pointer)

    def check_product_version_item(self, version, pointer):
        """The product's latest version, editable, of a product ready to submit (or approved before: an update)."""
        product = self.store.parent(version)
        a = product["attributes"]
        noun = "%s '%s'" % (NOUN[product["type"]], a["productId"])
        latest = self.store.kid_recs(product, "versions")[-1]
        state = version["attributes"]["state"]
        if latest["id"] != version["id"] or state not in EDITABLE_VERSION_STATES:
            raise state_error("Version %d of the %s is %s%s; only its latest version, still editable, can be submitted"
                              % (version["attributes"]["version"], noun, state,
                                 "" if latest["id"] == version["id"] else " and not its latest"), pointer)
        if a["state"] == "READY_TO_SUBMIT":
            return
        if a["state"] in APPROVED_OR_LATER and not self.missing_parts(product):
            return  # a new version of a product App Review approved before
        missing = self.missing_parts(product) if a["state"] == "MISSING_METADATA" else []
        raise state_error("The %s is %s; only a product READY_TO_SUBMIT can be added to a review submission%s"
                          % (noun, a["state"], " (it still needs %s)" % ", ".join(missing) if missing else ""),
                          pointer)

    def review_targets(self, submission):
        """(item, relationship name, the resource it names) of each item still in the submission."""
        out = []
        for item in self.store.kid_recs(submission, "items"):
            if item["attributes"]["state"] == "REMOVED":
                continue
            for name, linked in item["rels"].items():
                target = self.store.get(ITEM_TYPES.get(name, ""), (linked.get("data") or {}).get("id"))
                if target is not None:
                    out.append((item, name, target))
        return out

    def update_review_submission(self, c):
        self.check_update_id(c)
        rec = self.store.need("reviewSubmissions", c.id)
        a = c.body["data"].get("attributes") or {}
        if a.get("canceled"):
            if rec["attributes"]["state"] not in ("READY_FOR_REVIEW", "WAITING_FOR_REVIEW"):
                raise state_error("A submission %s cannot be cancelled" % rec["attributes"]["state"])
            if rec["attributes"]["state"] == "WAITING_FOR_REVIEW":
                for _, name, target in self.review_targets(rec):
                    self.withdraw(name, target)
            for item in self.store.kid_recs(rec, "items"):
                item["attributes"]["state"] = "REMOVED"
            rec["attributes"]["state"] = "CANCELING"
        elif a.get("submitted"):
            if rec["attributes"]["state"] != "READY_FOR_REVIEW":
                raise state_error("This submission has already been submitted")
            targets = self.review_targets(rec)
            if not targets:
                raise state_error("A submission needs at least one item")
            names = {name for _, name, _ in targets}
            for item, name, target in targets:
                if name in PRODUCT_VERSIONS:  # still ready: its metadata may have changed since it was added
                    self.check_product_version_item(target, "/data/attributes/submitted")
            app = self.store.app_of(rec)
            if names.intersection(PRODUCT_VERSIONS) and "appStoreVersion" not in names and \
                    not any(self.ever_approved(p) for p in self.products_of(app)):
                raise state_error(FIRST_PRODUCT_RULE, "/data/attributes/submitted")
            for _, name, target in targets:
                self.send_to_review(name, target)
            rec["attributes"]["state"] = "WAITING_FOR_REVIEW"
            rec["attributes"]["submittedDate"] = now()
        return self.updated(rec, c)

    # -- what review does to each kind of item
    def send_to_review(self, name, target):
        if name == "appStoreVersion":
            target["stateBeforeReview"] = target["attributes"]["appVersionState"]
            self.set_app_version_state(target, "WAITING_FOR_REVIEW")
        elif name == "backgroundAssetVersion":
            self.app_store_release(target)["attributes"]["state"] = "WAITING_FOR_REVIEW"
        else:
            product = self.store.parent(target)
            product["stateBeforeReview"] = product["attributes"]["state"]
            product["everSubmitted"] = True
            self.set_product_version_state(target, "WAITING_FOR_REVIEW")
            product["attributes"]["state"] = "WAITING_FOR_REVIEW"
            self.review_image(product, ("PREPARE_FOR_SUBMISSION", "REJECTED"), "WAITING_FOR_REVIEW")

    def withdraw(self, name, target):
        """A cancelled submission: a version goes back to the developer; a product to the state it had."""
        if name == "appStoreVersion":
            target.pop("stateBeforeReview", None)
            self.set_app_version_state(target, "DEVELOPER_REJECTED")
        elif name == "backgroundAssetVersion":
            self.app_store_release(target)["attributes"]["state"] = "PREPARE_FOR_SUBMISSION"
        else:
            product = self.store.parent(target)
            self.set_product_version_state(target, "DEVELOPER_REJECTED")
            product["attributes"]["state"] = product.pop("stateBeforeReview", "READY_TO_SUBMIT")
            self.refresh_readiness(product)
            self.review_image(product, ("WAITING_FOR_REVIEW",), "PREPARE_FOR_SUBMISSION")

    def set_product_version_state(self, version, state):
        version["attributes"]["state"] = state
        loc_state = {"DEVELOPER_REJECTED": "PREPARE_FOR_SUBMISSION", "IN_REVIEW": "WAITING_FOR_REVIEW"}.get(state, state)
        for loc in self.store.kid_recs(version, "localizations"):
            loc["attributes"]["state"] = loc_state

    def review_outcome(self, app, outcome):
        """App Review's answer to the app's submissions waiting for or in review: `inReview` starts the review,
        `approve` approves everything in them. Answers the submissions it moved."""
        moved = []
        for submission in self.store.kid_recs(app, "reviewSubmissions", "reviewSubmissions"):
            state = submission["attributes"]["state"]
            if state not in ("WAITING_FOR_REVIEW", "IN_REVIEW") or (outcome == "inReview" and state == "IN_REVIEW"):
                continue
            for item, name, target in self.review_targets(submission):
                if outcome == "approve":
                    item["attributes"]["state"] = "APPROVED"
                    self.approve(name, target)
                else:
                    self.start_review(name, target)
            submission["attributes"]["state"] = "COMPLETE" if outcome == "approve" else "IN_REVIEW"
            moved.append(submission["id"])
        return moved

    def start_review(self, name, target):
        if name == "appStoreVersion":
            self.set_app_version_state(target, "IN_REVIEW")
        elif name == "backgroundAssetVersion":
            self.app_store_release(target)["attributes"]["state"] = "IN_REVIEW"
        else:
            self.set_product_version_state(target, "IN_REVIEW")
            self.store.parent(target)["attributes"]["state"] = "IN_REVIEW"

    def approve(self, name, target):
        if name == "appStoreVersion":
            target.pop("stateBeforeReview", None)
            platform = target["attributes"]["platform"]
            for other in self.app_store_versions(self.store.app_of(target)):
                if other["attributes"]["platform"] == platform and \
                        other["attributes"]["appVersionState"] == "READY_FOR_DISTRIBUTION":
                    self.set_app_version_state(other, "REPLACED_WITH_NEW_VERSION")
            self.set_app_version_state(target, "READY_FOR_DISTRIBUTION")  # released after approval
        elif name == "backgroundAssetVersion":
            self.app_store_release(target)["attributes"]["state"] = "READY_FOR_DISTRIBUTION"
            self.supersede_releases(self.store.parent(target), "appStoreRelease", "READY_FOR_DISTRIBUTION")
        else:
            product = self.store.parent(target)
            for older in self.store.kid_recs(product, "versions"):
                if older["id"] != target["id"] and older["attributes"]["state"] == "APPROVED":
                    older["attributes"]["state"] = "REPLACED_WITH_NEW_VERSION"
            self.set_product_version_state(target, "APPROVED")
            product.pop("stateBeforeReview", None)
            product["everApproved"] = True
            product["attributes"]["state"] = "APPROVED"
            self.review_image(product, ("WAITING_FOR_REVIEW",), "APPROVED")
