"""In-app purchases (v2) with their availability and price schedule."""

from ..core.errors import entity_error, not_found
from ..reference import CURRENCY, FREE_POINT, decode_price_point, price_point_id, ref

ROUTES = [
    ("GET", "/v2/inAppPurchases/{id}/inAppPurchaseAvailability",
     "inAppPurchasesV2_inAppPurchaseAvailability_getToOneRelated", "get_one"),
    ("GET", "/v1/inAppPurchaseAvailabilities/{id}/availableTerritories",
     "inAppPurchaseAvailabilities_availableTerritories_getToManyRelated", "get_available_territories"),
    ("GET", "/v2/inAppPurchases/{id}/iapPriceSchedule", "inAppPurchasesV2_iapPriceSchedule_getToOneRelated", "get_one"),
    ("GET", "/v1/inAppPurchasePriceSchedules/{id}/manualPrices",
     "inAppPurchasePriceSchedules_manualPrices_getToManyRelated", "get_kids"),
    ("POST", "/v2/inAppPurchases", "inAppPurchasesV2_createInstance", "create_iap"),
    ("PATCH", "/v2/inAppPurchases/{id}", "inAppPurchasesV2_updateInstance", "update_iap"),
    ("POST", "/v1/inAppPurchaseAvailabilities", "inAppPurchaseAvailabilities_createInstance", "create_iap_availability"),
    ("POST", "/v1/inAppPurchasePriceSchedules", "inAppPurchasePriceSchedules_createInstance", "create_price_schedule"),
    ("GET", "/v1/inAppPurchasePriceSchedules/{id}/automaticPrices",
     "inAppPurchasePriceSchedules_automaticPrices_getToManyRelated", "get_automatic_prices"),
]

FAMILY_SHARING_NOTE = "Family Sharing is only available for non-consumables and auto-renewable subscriptions"


class InAppPurchases:
    def create_iap(self, c):
        data = c.body["data"]
        a = data["attributes"]
        app = self.related_need(data, "app", "apps")
        self.check_product_id(app, a["productId"])
        self.check_reference_name(app, a["name"])
        self.check_review_note(a)
        if a.get("familySharable") and a["inAppPurchaseType"] != "NON_CONSUMABLE":
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", FAMILY_SHARING_NOTE, "/data/attributes/familySharable")
        return self.created(self.new_iap(app, a), c)

    def new_iap(self, app, a, state="MISSING_METADATA"):
        rec = {"type": "inAppPurchases", "id": self.store.new_id(True),
               "attributes": {"name": a["name"], "productId": a["productId"],
                              "inAppPurchaseType": a["inAppPurchaseType"], "state": state,
                              "reviewNote": a.get("reviewNote"), "familySharable": bool(a.get("familySharable")),
                              "contentHosting": False}, "rels": {}}
        self.product_ids_in_app(app).add(a["productId"])
        self.store.add_kid(app, "inAppPurchases", rec)
        if self.settings["autoCreateVersions"]:
            self.new_version("inAppPurchaseVersions", rec)
        return rec

    def update_iap(self, c):
        self.check_update_id(c)
        rec = self.store.need("inAppPurchases", c.id)
        a = c.body["data"].get("attributes") or {}
        app = self.store.app_of(rec)
        if a.get("name") is not None:
            self.check_reference_name(app, a["name"], rec["id"])
        self.check_review_note(a)
        self.check_family_sharing(rec, a, rec["attributes"]["inAppPurchaseType"] == "NON_CONSUMABLE")
        for k in ("name", "reviewNote", "familySharable"):
            if k in a and (a[k] is not None or k == "reviewNote"):
                rec["attributes"][k] = a[k]
        return self.updated(rec, c)

    # -- availability
    def create_iap_availability(self, c):
        data = c.body["data"]
        iap = self.related_need(data, "inAppPurchase", "inAppPurchases")
        ids = self.territories_of(data, "availableTerritories")
        rec = {"type": "inAppPurchaseAvailabilities", "id": self.store.new_id(False),
               "attributes": {"availableInNewTerritories": data["attributes"]["availableInNewTerritories"]},
               "rels": {"availableTerritories": {"data": [ref("territories", t) for t in ids]}}}
        self.store.set_slot(iap, "availability", rec)  # replaces the previous availability
        iap.pop("_legacy", None)  # a purchase made before 2023 is answered as any other once it has an availability
        self.metadata_changed(iap)
        return self.created(rec, c)

    def set_iap_availability(self, iap, territories, new_territories):
        return self.store.set_slot(iap, "availability", {
            "type": "inAppPurchaseAvailabilities", "id": self.store.new_id(False),
            "attributes": {"availableInNewTerritories": bool(new_territories)},
            "rels": {"availableTerritories": {"data": [ref("territories", t) for t in territories]}}})

    # -- price schedule
    def create_price_schedule(self, c):
        data = c.body["data"]
        iap = self.related_need(data, "inAppPurchase", "inAppPurchases")
        base = self.rel_id(data, "baseTerritory")
        if base not in CURRENCY:
            raise not_found("There is no territory '%s'" % base, "/data/relationships/baseTerritory")
        prices, seen = [], set()
        for i, item in self.inline(c, "manualPrices", "inAppPurchasePrices"):
            rels = item.get("relationships") or {}
            pointer = "/included/%d/relationships/inAppPurchasePricePoint" % i
            point_id = (rels.get("inAppPurchasePricePoint") or {}).get("data", {}) or {}
            if not point_id:
                raise entity_error("ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED", "A price needs a price point", pointer)
            d = self.owned_point(point_id.get("id"), iap, "inAppPurchasePricePoints", pointer)
            owner_ref = (rels.get("inAppPurchaseV2") or {}).get("data")
            if owner_ref and owner_ref.get("id") != iap["id"]:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "The price belongs to a different in-app purchase",
                                   "/included/%d/relationships/inAppPurchaseV2" % i)
            attrs = item.get("attributes") or {}
            self.check_start_date(attrs.get("startDate"), "/included/%d/attributes/startDate" % i)
            self.check_end_date(attrs, "/included/%d/attributes/endDate" % i)
            # A sale (a price with an end) may start when the schedule's other prices do: it applies over them.
            key = (d["t"], attrs.get("startDate"), attrs.get("endDate") is not None)
            if key in seen:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID",
                                   "Two prices for %s start on the same date" % d["t"], "/included/%d" % i)
            seen.add(key)
            for other_point, other in prices:
                if other_point["t"] == d["t"] and self.sales_overlap(attrs, other):
                    raise entity_error("ENTITY_ERROR.INCLUDED.INVALID",
                                       "Two sales of %s overlap" % d["t"], "/included/%d/attributes" % i)
            if int(d["p"]) == FREE_POINT and iap["attributes"]["inAppPurchaseType"] != "NON_CONSUMABLE":
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "Only non-consumables can be free", pointer)
            prices.append((d, attrs))
        if (base, None, False) not in seen:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The schedule needs a current price (no start date) for its base territory %s" % base,
                               "/data/relationships/baseTerritory")
        rec = self.new_price_schedule(iap, base, prices)
        self.metadata_changed(iap)
        return self.created(rec, c)

    def get_automatic_prices(self, c):
        """The prices App Store Connect equalizes from the base territory's: every territory without a manual price
        follows each base price, from its start date. Built on demand, like price points."""
        schedule = self.store.need("inAppPurchasePriceSchedules", c.id)
        manual = self.store.kid_recs(schedule, "manualPrices")
        base = schedule["rels"]["baseTerritory"]["data"]["id"]
        # A sale priced by hand in a territory leaves that territory's other prices equalized.
        by_hand = {self.territory_of(p) for p in manual if p["attributes"].get("endDate") is None}
        territories = [t for t in self.territory_codes() if t not in by_hand]
        if "filter[territory]" in c.q:
            wanted = set(c.q["filter[territory]"].split(","))
            territories = [t for t in territories if t in wanted]
        recs = []
        for territory in territories:
            for price in manual:
                if self.territory_of(price) != base:
                    continue
                d = decode_price_point(price["rels"]["inAppPurchasePricePoint"]["data"]["id"])
                start, end = price["attributes"].get("startDate"), price["attributes"].get("endDate")
                if end is not None and any(self.territory_of(p) == territory and self.sales_overlap(p["attributes"], price["attributes"])
                                           for p in manual if p is not price):
                    continue  # the territory's own sale price applies
                recs.append({"type": "inAppPurchasePrices", "id": "%s-%s-%s" % (price["id"], territory, start or "now"),
                             "attributes": {"startDate": start, "endDate": end, "manual": False},
                             "rels": {"inAppPurchasePricePoint": {"data": ref("inAppPurchasePricePoints",
                                                                              price_point_id(d["s"], territory, d["p"]))},
                                      "territory": {"data": ref("territories", territory)}},
                             "virtual": True})
        return 200, self.page(recs, c.q, c.path)

    def new_price_schedule(self, iap, base, prices):
        rec = {"type": "inAppPurchasePriceSchedules", "id": iap["id"], "attributes": {},
               "rels": {"baseTerritory": {"data": ref("territories", base)}}}
        self.store.set_slot(iap, "priceSchedule", rec)  # replaces the previous schedule and its prices
        for d, attrs in prices:
            self.store.add_kid(rec, "manualPrices", {
                "type": "inAppPurchasePrices", "id": self.store.new_id(False),
                "attributes": {"startDate": attrs.get("startDate"), "endDate": attrs.get("endDate"), "manual": True},
                "rels": {"inAppPurchasePricePoint": {"data": ref("inAppPurchasePricePoints",
                                                                 price_point_id(iap["id"], d["t"], d["p"]))},
                         "territory": {"data": ref("territories", d["t"])}}})
        return rec
