"""A product's state before review, and deleting products.

Before its first submission a product is `MISSING_METADATA` until it holds everything review needs, then
`READY_TO_SUBMIT` (App Store Connect Help, In-app purchase statuses: "you have not yet uploaded a screenshot or
completed your metadata"). The fake recomputes it whenever an API request changes one of those parts; a state given
by the seed document or the generator stands until then.

A product can be deleted only if it was never submitted for review (App Store Connect Help); its product ID stays
used (`usedProductIds`).
"""

from ..core.errors import state_error

ROUTES = [
    ("DELETE", "/v2/inAppPurchases/{id}", "inAppPurchasesV2_deleteInstance", "delete_product"),
    ("DELETE", "/v1/subscriptions/{id}", "subscriptions_deleteInstance", "delete_product"),
]

PRODUCT_TYPES = ("inAppPurchases", "subscriptions")
# The states computed from what a product holds.
BEFORE_REVIEW = ("MISSING_METADATA", "READY_TO_SUBMIT")
# Never submitted: the computed states, and a hosted in-app purchase's content states before review.
DELETABLE = BEFORE_REVIEW + ("WAITING_FOR_UPLOAD", "PROCESSING_CONTENT")
# Approved, or taken off sale after approval.
APPROVED_OR_LATER = ("APPROVED", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE")
NOUN = {"inAppPurchases": "in-app purchase", "subscriptions": "subscription"}


class ProductStates:
    """Mixin of the service."""

    def missing_parts(self, product):
        """What review still needs of the product, in words (empty: ready)."""
        missing = []
        is_sub = product["type"] == "subscriptions"
        if is_sub and not product["attributes"].get("subscriptionPeriod"):
            missing.append("a subscription duration")
        versions = self.store.kid_recs(product, "versions")
        if not versions or not self.store.kid_ids(versions[-1], "localizations"):
            missing.append("a localization")
        if is_sub:
            priced = bool(self.store.kid_ids(product, "prices"))
            sold = any(p["rels"].get("availableTerritories", {}).get("data")
                       for p in self.store.kid_recs(product, "planAvailabilities"))
        else:
            priced = self.store.slot(product, "priceSchedule") is not None
            availability = self.store.slot(product, "availability")
            sold = bool(availability and availability["rels"].get("availableTerritories", {}).get("data"))
        if not priced:
            missing.append("a price")
        if not sold:
            missing.append("availability in a territory")
        shot = self.store.slot(product, "screenshot")
        if shot is None or shot["attributes"].get("assetDeliveryState", {}).get("state") != "COMPLETE":
            missing.append("an uploaded review screenshot")
        return missing

    def refresh_readiness(self, product):
        """MISSING_METADATA or READY_TO_SUBMIT from what the product holds; any other state is review's."""
        if product["attributes"]["state"] in BEFORE_REVIEW:
            product["attributes"]["state"] = "MISSING_METADATA" if self.missing_parts(product) else "READY_TO_SUBMIT"

    def metadata_changed(self, rec):
        """Recomputes the state of the product `rec` is, or belongs to (a version, price, screenshot...)."""
        while rec is not None and rec["type"] not in PRODUCT_TYPES:
            rec = self.store.parent(rec)
        if rec is not None:
            self.refresh_readiness(rec)

    @staticmethod
    def ever_approved(product):
        return bool(product.get("everApproved")) or product["attributes"]["state"] in APPROVED_OR_LATER

    def delete_product(self, c):
        type_ = "inAppPurchases" if c.path.startswith("/v2/") else "subscriptions"
        rec = self.store.need(type_, c.id)
        a = rec["attributes"]
        if a["state"] not in DELETABLE or rec.get("everSubmitted"):
            raise state_error("The %s '%s' is %s%s; only a product never submitted for review can be deleted "
                              "(remove it from sale instead)"
                              % (NOUN[type_], a["productId"], a["state"],
                                 " and was submitted for review before" if a["state"] in DELETABLE else ""))
        versions = set(self.store.kid_ids(rec, "versions"))
        for submission in self.store.res.get("reviewSubmissions", {}).values():
            for item in list(self.store.kid_recs(submission, "items")):
                linked = [r["data"]["id"] for r in item["rels"].values() if isinstance(r.get("data"), dict)]
                if versions.intersection(linked):
                    self.store.remove(item)  # only unsubmitted submissions can hold it: it leaves them
        promoted = self.promoted_purchase_of(rec)
        if promoted is not None:
            self.store.remove(promoted)
        for slot in ("screenshot", "image"):
            asset = self.store.slot(rec, slot)
            if asset is not None:
                self.assets.pop(asset["id"], None)
        group = self.store.parent(rec) if type_ == "subscriptions" else None
        self.store.remove(rec)  # versions, localizations, prices, availability, screenshot, image, offers go with it
        if group is not None:
            self.close_group_levels(group)
        return 204, None  # its product ID stays in usedProductIds: never reusable

    def close_group_levels(self, group):
        """Levels stay 1...n after a subscription leaves the group: the ones below move up, ties kept."""
        subs = self.store.kid_recs(group, "subscriptions", "subscriptions")
        ranks = {level: i + 1 for i, level in enumerate(sorted({s["attributes"]["groupLevel"] for s in subs}))}
        for s in subs:
            s["attributes"]["groupLevel"] = ranks[s["attributes"]["groupLevel"]]
