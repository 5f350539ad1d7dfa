"""Reads of a resource's related resources (child lists, to-one children, territories) and the plain updates
and deletes several resource types share."""

from ..core.errors import not_found

# Which child list a to-many read returns: operationId -> (parent type, child list name).
KID_LISTS = {
    "subscriptionGroups_subscriptions_getToManyRelated": ("subscriptionGroups", "subscriptions"),
    "subscriptionGroups_versions_getToManyRelated": ("subscriptionGroups", "versions"),
    "subscriptionGroupVersions_localizations_getToManyRelated": ("subscriptionGroupVersions", "localizations"),
    "inAppPurchasesV2_versions_getToManyRelated": ("inAppPurchases", "versions"),
    "inAppPurchaseVersions_localizations_getToManyRelated": ("inAppPurchaseVersions", "localizations"),
    "subscriptions_versions_getToManyRelated": ("subscriptions", "versions"),
    "subscriptionVersions_localizations_getToManyRelated": ("subscriptionVersions", "localizations"),
    "inAppPurchasePriceSchedules_manualPrices_getToManyRelated": ("inAppPurchasePriceSchedules", "manualPrices"),
    "subscriptions_prices_getToManyRelated": ("subscriptions", "prices"),
    "subscriptions_introductoryOffers_getToManyRelated": ("subscriptions", "introductoryOffers"),
    "subscriptions_promotionalOffers_getToManyRelated": ("subscriptions", "promotionalOffers"),
    "subscriptionPromotionalOffers_prices_getToManyRelated": ("subscriptionPromotionalOffers", "prices"),
    "subscriptions_offerCodes_getToManyRelated": ("subscriptions", "offerCodes"),
    "subscriptionOfferCodes_prices_getToManyRelated": ("subscriptionOfferCodes", "prices"),
    "subscriptionOfferCodes_oneTimeUseCodes_getToManyRelated": ("subscriptionOfferCodes", "oneTimeUseCodes"),
    "subscriptionOfferCodes_customCodes_getToManyRelated": ("subscriptionOfferCodes", "customCodes"),
    "inAppPurchasesV2_offerCodes_getToManyRelated": ("inAppPurchases", "offerCodes"),
    "inAppPurchaseOfferCodes_prices_getToManyRelated": ("inAppPurchaseOfferCodes", "prices"),
    "inAppPurchaseOfferCodes_oneTimeUseCodes_getToManyRelated": ("inAppPurchaseOfferCodes", "oneTimeUseCodes"),
    "inAppPurchaseOfferCodes_customCodes_getToManyRelated": ("inAppPurchaseOfferCodes", "customCodes"),
    "subscriptions_winBackOffers_getToManyRelated": ("subscriptions", "winBackOffers"),
    "winBackOffers_prices_getToManyRelated": ("winBackOffers", "prices"),
    "subscriptions_planAvailabilities_getToManyRelated": ("subscriptions", "planAvailabilities"),
    "apps_promotedPurchases_getToManyRelated": ("apps", "promotedPurchases"),
}
# To-one reads: operationId -> (parent type, slot name).
ONE_SLOTS = {
    "inAppPurchasesV2_inAppPurchaseAvailability_getToOneRelated": ("inAppPurchases", "availability"),
    "inAppPurchasesV2_iapPriceSchedule_getToOneRelated": ("inAppPurchases", "priceSchedule"),
    "inAppPurchasesV2_appStoreReviewScreenshot_getToOneRelated": ("inAppPurchases", "screenshot"),
    "subscriptions_appStoreReviewScreenshot_getToOneRelated": ("subscriptions", "screenshot"),
}
# Offers whose territory is their prices' territories.
OFFERS_PRICED_PER_TERRITORY = ("subscriptions_promotionalOffers_getToManyRelated",
                               "subscriptions_offerCodes_getToManyRelated",
                               "inAppPurchasesV2_offerCodes_getToManyRelated")


class Relations:
    """Mixin of the service."""

    def get_kids(self, c):
        parent_type, name = KID_LISTS[c.op]
        parent = self.store.need(parent_type, c.id)
        recs = self.store.kid_recs(parent, name)
        if "filter[territory]" in c.q and c.op in OFFERS_PRICED_PER_TERRITORY:
            wanted = set(c.q["filter[territory]"].split(","))
            recs = [r for r in recs if any(self.territory_of(p) in wanted for p in self.store.kid_recs(r, "prices"))]
            q = {k: v for k, v in c.q.items() if k != "filter[territory]"}
            return 200, self.page(self.filtered(recs, q), c.q, c.path)
        return 200, self.page(self.filtered(recs, c.q), c.q, c.path)

    def get_instance(self, c):
        rec = self.store.need(c.path.split("/")[2], c.id)
        return 200, self.single(rec, c.q, c.path)

    def get_one(self, c):
        parent_type, slot = ONE_SLOTS[c.op]
        parent = self.store.need(parent_type, c.id)
        rec = self.store.slot(parent, slot)
        if rec is None:
            # JSON:API answers an empty to-one relationship with `"data": null`; `emptyToOne: "404"` keeps the
            # other reading, so clients can be tested against both.
            if self.settings["emptyToOne"] == "404":
                raise not_found("The %s has no %s" % (parent_type[:-1], slot))
            return 200, self.empty_to_one(c.path)
        if slot == "screenshot":
            self.processing_view(rec)
        return 200, self.single(rec, c.q, c.path)

    def get_available_territories(self, c):
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        ids = [r["id"] for r in rec["rels"]["availableTerritories"]["data"]]
        return 200, self.page([self.store.get("territories", i) for i in ids], c.q, c.path)

    def delete_plain(self, c):
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        self.store.remove(rec)
        return 204, None

    def update_plain(self, c):
        self.check_update_id(c)
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        a = c.body["data"].get("attributes") or {}
        for k, v in a.items():
            if v is not None:
                rec["attributes"][k] = v
        return self.updated(rec, c)
