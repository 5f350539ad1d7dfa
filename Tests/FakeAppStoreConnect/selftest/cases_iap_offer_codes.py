"""In-app purchases' offer codes: creating them priced in exactly the territories the purchase is sold in, reading
them (with `include=`, `limit[...]` and paging, from the purchase, the app's list and their own endpoints), their codes
and deactivation, the rules they share with subscriptions' offer codes (the app's quarter, custom codes unique in the
app), deleting the purchase, the managed view, and generated ones a push could make again.

The code helpers (`batch`, `custom`, `values`, `set_active`, `make_codes_again`) are OfferCodeCases', mixed in beside
these cases; `owner=IAP` makes them in-app purchase ones."""

import json
import re

from .cases_generator import IAP_OFFER_CODE_CLASSES, ROUND_TRIP
from .cases_offer_codes import TODAY

IAP = "inAppPurchase"
OFFERS = "/v1/inAppPurchaseOfferCodes"
BATCHES, CUSTOM = "/v1/inAppPurchaseOfferCodeOneTimeUseCodes", "/v1/inAppPurchaseOfferCodeCustomCodes"
OFFER_TYPE, BATCH_TYPE, CUSTOM_TYPE = ("inAppPurchaseOfferCodes", "inAppPurchaseOfferCodeOneTimeUseCodes",
                                       "inAppPurchaseOfferCodeCustomCodes")
NEW_TYPES = (OFFER_TYPE, "inAppPurchaseOfferPrices", BATCH_TYPE, CUSTOM_TYPE)
PRICE_KINDS = {"iap-offer-code:free", "iap-offer-code:paid", "iap-offer-code:territory-price"}


def canonical(price):
    """A customer price as the managed view writes it (`14.90` is `14.9`, `0.00` is `0`)."""
    return (price.rstrip("0").rstrip(".") if "." in price else price) or "0"


class IapOfferCodeCases:
    # -- helpers
    def sold_iap(self, product_id="com.example.gems", territories=("USA", "FRA"), kind="CONSUMABLE"):
        """An in-app purchase available in `territories` (none: never made available)."""
        iap = self.create_iap(product_id, kind)["data"]
        if territories:
            self.call("POST", "/v1/inAppPurchaseAvailabilities", {"data": {
                "type": "inAppPurchaseAvailabilities", "attributes": {"availableInNewTerritories": False},
                "relationships": {"inAppPurchase": self.linkage("inAppPurchases", iap["id"]),
                                  "availableTerritories": {"data": [{"type": "territories", "id": t}
                                                                    for t in territories]}}}}, 201)
        return iap

    def iap_points(self, iap_id, territory):
        """The purchase's points in `territory` as [(id, customer price)], in the grid's order: the free point first."""
        doc = self.call("GET", "/v2/inAppPurchases/%s/pricePoints?filter[territory]=%s&limit=8000" % (iap_id, territory),
                        expect=200)[1]
        return [(p["id"], p["attributes"]["customerPrice"]) for p in doc["data"]]

    def iap_offer(self, iap_id, prices, name="Launch", eligibilities=("NON_SPENDER",), expect=201):
        """POST /v1/inAppPurchaseOfferCodes priced at `prices` [(territory, point id)]; None leaves either out."""
        included = []
        for i, (territory, point) in enumerate(prices):
            rels = {}
            if territory:
                rels["territory"] = self.linkage("territories", territory)
            if point:
                rels["pricePoint"] = self.linkage("inAppPurchasePricePoints", point)
            included.append({"type": "inAppPurchaseOfferPrices", "id": "${price-%d}" % i, "relationships": rels})
        return self.call("POST", OFFERS, {"data": {
            "type": OFFER_TYPE, "attributes": {"name": name, "customerEligibilities": list(eligibilities)},
            "relationships": {"inAppPurchase": self.linkage("inAppPurchases", iap_id),
                              "prices": {"data": [{"type": x["type"], "id": x["id"]} for x in included]}}},
            "included": included}, expect)[1]

    def priced_iap_offer(self, name="Launch", territories=("USA", "FRA"), number=0, product_id="com.example.gems"):
        """A new in-app purchase sold in `territories` and its offer code at the grid's `number`-th point (0: free)."""
        iap = self.sold_iap(product_id, territories)
        prices = [(t, self.iap_points(iap["id"], t)[number][0]) for t in territories]
        return iap, self.iap_offer(iap["id"], prices, name)["data"]

    def iap_offer_codes_view(self, app, product_id="com.example.gems"):
        return self.fake.control("POST", "managed", {"appId": app})["inAppPurchases"][product_id]["offerCodes"]

    def no_contract_failures(self):
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    # -- creating
    def test_iap_offer_codes_are_priced_where_the_purchase_is_sold(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        iap = self.sold_iap()
        usa, fra = self.iap_points(iap["id"], "USA"), self.iap_points(iap["id"], "FRA")
        self.assertEqual(usa[0][1], "0.00")  # the free point, which an offer code may use whatever the type
        made = self.iap_offer(iap["id"], [("USA", usa[0][0]), ("FRA", fra[5][0])],
                              eligibilities=("CHURNED_SPENDER", "NON_SPENDER"))["data"]
        self.assertEqual(made["attributes"], {"name": "Launch", "customerEligibilities": ["CHURNED_SPENDER", "NON_SPENDER"],
                                              "active": True, "productionCodeCount": 0, "sandboxCodeCount": 0})
        self.assertEqual(made["links"]["self"], self.fake.base + OFFERS + "/" + made["id"])
        oid = iap["id"]

        def refused(prices, code, pointer, name="Other", eligibilities=("ACTIVE_SPENDER",), iap_id=oid, status=409):
            doc = self.iap_offer(iap_id, prices, name, eligibilities, expect=status)
            self.assertError(doc, code, pointer)
        both = [("USA", usa[1][0]), ("FRA", fra[1][0])]
        refused(both, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "/data/attributes/name", name="Launch")
        refused(both, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/customerEligibilities", eligibilities=())
        refused(both, "ENTITY_ERROR.ATTRIBUTE.INVALID", None, eligibilities=("NEW",))  # a subscription offer's word
        refused([], "ENTITY_ERROR.RELATIONSHIP.INVALID", "/data/relationships/prices")  # priced nowhere
        # Set in some of the territories the purchase is sold in, as a subscription's offer code can be: kept as given.
        some = self.iap_offer(oid, both[:1], "USA only")["data"]
        listed = self.call("GET", OFFERS + "/" + some["id"] + "/prices?include=territory", expect=200)[1]
        self.assertEqual([p["relationships"]["territory"]["data"]["id"] for p in listed["data"]], ["USA"])
        gbr = self.iap_points(oid, "GBR")[1][0]
        refused(both + [("GBR", gbr)], "ENTITY_ERROR.INCLUDED.INVALID", "/included/2/relationships/territory")
        refused(both[:1] + both, "ENTITY_ERROR.INCLUDED.INVALID", "/included/1")  # the USA priced twice
        refused([("USA", fra[1][0]), both[1]], "ENTITY_ERROR.RELATIONSHIP.INVALID", "/included/0/relationships/territory")
        refused([("USA", None), both[1]], "ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED",
                "/included/0/relationships/pricePoint")
        refused([(None, None), both[1]], "ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED",
                "/included/0/relationships/territory")  # a point alone names its territory
        refused([("XYZ", usa[1][0]), both[1]], "NOT_FOUND", "/included/0/relationships/territory", status=404)
        other = self.sold_iap("com.example.coins")
        refused([("USA", self.iap_points(other["id"], "USA")[1][0]), both[1]], "ENTITY_ERROR.RELATIONSHIP.INVALID",
                "/included/0/relationships/pricePoint")  # another purchase's point
        refused(both, "NOT_FOUND", "/data/relationships/inAppPurchase", iap_id="nope", status=404)
        never = self.sold_iap("com.example.unsold", ())
        refused([("USA", self.iap_points(never["id"], "USA")[1][0])], "ENTITY_ERROR.RELATIONSHIP.INVALID",
                "/data/relationships/inAppPurchase", iap_id=never["id"])
        # a subscription offer's price relationship is not one of this request's
        bad = self.call("POST", OFFERS, {"data": {
            "type": OFFER_TYPE, "attributes": {"name": "Sub", "customerEligibilities": ["NON_SPENDER"]},
            "relationships": {"inAppPurchase": self.linkage("inAppPurchases", oid),
                              "prices": {"data": [{"type": "inAppPurchaseOfferPrices", "id": "p"}]}}},
            "included": [{"type": "inAppPurchaseOfferPrices", "id": "p", "relationships": {
                "territory": self.linkage("territories", "USA"),
                "subscriptionPricePoint": self.linkage("subscriptionPricePoints", usa[1][0])}}]}, 409)[1]
        self.assertError(bad, "ENTITY_ERROR.INCLUDED.UNKNOWN", "/included/0/relationships/subscriptionPricePoint")
        # the same name on another purchase is another offer code
        self.iap_offer(other["id"], [(t, self.iap_points(other["id"], t)[2][0]) for t in ("USA", "FRA")])
        listed = self.call("GET", "/v2/inAppPurchases/%s/offerCodes" % oid, expect=200)[1]
        self.assertEqual([x["id"] for x in listed["data"]], [made["id"], some["id"]])  # nothing refused was made
        self.no_contract_failures()

    # -- reading
    def test_iap_offer_codes_read_with_include_limits_and_paging(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        territories = ("USA", "FRA", "JPN")
        iap, first = self.priced_iap_offer("First", territories)
        points = {t: self.iap_points(iap["id"], t) for t in territories}
        second = self.iap_offer(iap["id"], [(t, points[t][3][0]) for t in territories], "Second")["data"]
        self.batch(first["id"], owner=IAP)
        self.batch(first["id"], 4, "2031-06-01", owner=IAP)
        self.custom(first["id"], "FIRST31", owner=IAP)
        path = "/v2/inAppPurchases/%s/offerCodes" % iap["id"]
        page = self.call("GET", path + "?include=oneTimeUseCodes,customCodes,prices&limit[prices]=2"
                         "&limit[oneTimeUseCodes]=1&limit=1", expect=200)[1]
        self.assertEqual(([x["id"] for x in page["data"]], page["meta"]["paging"]), ([first["id"]], {"total": 2, "limit": 1}))
        rels = page["data"][0]["relationships"]
        self.assertEqual((len(rels["prices"]["data"]), rels["prices"]["meta"]["paging"]), (2, {"total": 3, "limit": 2}))
        self.assertEqual(rels["oneTimeUseCodes"]["meta"]["paging"], {"total": 2, "limit": 1})
        self.assertEqual(rels["customCodes"]["meta"]["paging"], {"total": 1, "limit": 10})
        self.assertEqual(sorted(x["type"] for x in page["included"]),
                         [CUSTOM_TYPE, BATCH_TYPE] + ["inAppPurchaseOfferPrices"] * 2)
        following = self.call("GET", page["links"]["next"], expect=200)[1]
        self.assertEqual([x["id"] for x in following["data"]], [second["id"]])
        self.assertNotIn("next", following["links"])
        self.assertEqual(self.call("GET", path + "?filter[territory]=JPN", expect=200)[1]["meta"]["paging"]["total"], 2)
        self.assertEqual(self.call("GET", path + "?filter[territory]=GBR", expect=200)[1]["data"], [])
        one = self.call("GET", "%s/%s?include=prices,customCodes&limit[prices]=1" % (OFFERS, first["id"]), expect=200)[1]
        self.assertEqual(one["data"]["relationships"]["prices"]["meta"]["paging"], {"total": 3, "limit": 1})
        self.assertEqual(one["data"]["attributes"]["productionCodeCount"], 507)
        # the prices, with their territory and point: the point shows the customer price
        prices = self.call("GET", "%s/%s/prices?include=territory,pricePoint&filter[territory]=USA,JPN"
                           % (OFFERS, second["id"]), expect=200)[1]
        self.assertEqual(sorted(p["relationships"]["territory"]["data"]["id"] for p in prices["data"]), ["JPN", "USA"])
        shown = {x["id"]: x for x in prices["included"]}
        for p in prices["data"]:
            territory = p["relationships"]["territory"]["data"]["id"]
            point = shown[p["relationships"]["pricePoint"]["data"]["id"]]
            self.assertEqual((point["type"], point["attributes"]["customerPrice"]),
                             ("inAppPurchasePricePoints", points[territory][3][1]))
        self.assertIn(territory, shown)
        # the app's list: each purchase's offer codes, cut at limit[offerCodes]
        bare = self.create_iap("com.example.bare")["data"]
        listing = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=offerCodes&limit[offerCodes]=1" % self.app,
                            expect=200)[1]
        products = {x["id"]: x for x in listing["data"]}
        by_id = {i: x["relationships"]["offerCodes"] for i, x in products.items()}
        self.assertEqual(by_id[iap["id"]], {"data": [{"type": OFFER_TYPE, "id": first["id"]}],
                                            "meta": {"paging": {"total": 2, "limit": 1}},
                                            "links": self.relationship_links(products[iap["id"]], "offerCodes")})
        self.assertEqual(by_id[bare["id"]], {"data": [], "meta": {"paging": {"total": 0, "limit": 1}},
                                             "links": self.relationship_links(products[bare["id"]], "offerCodes")})
        self.assertEqual([(x["type"], x["id"]) for x in listing["included"]], [(OFFER_TYPE, first["id"])])
        # what the document doesn't list is refused; unknown ids are 404
        for query in ("%s/%s?include=inAppPurchase" % (OFFERS, first["id"]),
                      "%s/%s?limit[prices]=51" % (OFFERS, first["id"]), path + "?include=subscription",
                      "%s/%s/oneTimeUseCodes?include=offerCode" % (OFFERS, first["id"])):
            self.call("GET", query, expect=400)
        for query in (OFFERS + "/nope", "/v2/inAppPurchases/nope/offerCodes", OFFERS + "/nope/prices"):
            self.call("GET", query, expect=404)
        self.no_contract_failures()

    # -- codes
    def test_iap_offer_code_batches_and_custom_codes(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, offer = self.priced_iap_offer()
        made = self.batch(offer["id"], owner=IAP)["data"]
        a = made["attributes"]
        self.assertEqual((made["type"], a["numberOfCodes"], a["expirationDate"], a["active"], a["environment"]),
                         (BATCH_TYPE, 3, "2031-05-01", True, "PRODUCTION"))
        self.assertTrue(a["createdDate"].startswith(TODAY + "T"))
        self.assertNotIn("offerCode", made.get("relationships", {}))  # the document's schema has no such relationship
        sandbox = self.batch(offer["id"], 5, "2031-09-01", environment="SANDBOX", owner=IAP)["data"]
        code = self.custom(offer["id"], "GEMS31", 500, owner=IAP)["data"]
        self.assertEqual((code["type"], code["attributes"]["customCode"]), (CUSTOM_TYPE, "GEMS31"))
        doc = self.call("GET", "%s/%s?include=createdByActor,deactivatedByActor" % (BATCHES, made["id"]), expect=200)[1]
        self.assertEqual(doc["data"]["attributes"], a)
        self.assertEqual(doc["data"]["relationships"]["createdByActor"],  # actors aren't modelled
                         {"data": None, "links": self.relationship_links(doc["data"], "createdByActor")})
        self.call("GET", "%s/%s?include=offerCode" % (CUSTOM, code["id"]), expect=400)
        listing = self.call("GET", "%s/%s/oneTimeUseCodes?limit=1" % (OFFERS, offer["id"]), expect=200)[1]
        self.assertEqual(([x["id"] for x in listing["data"]], listing["meta"]["paging"]),
                         ([made["id"]], {"total": 2, "limit": 1}))
        self.assertEqual([x["id"] for x in self.call("GET", listing["links"]["next"], expect=200)[1]["data"]],
                         [sandbox["id"]])
        self.assertEqual([x["id"] for x in self.call("GET", "%s/%s/customCodes" % (OFFERS, offer["id"]),
                                                     expect=200)[1]["data"]], [code["id"]])
        counts = self.call("GET", OFFERS + "/" + offer["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual((counts["productionCodeCount"], counts["sandboxCodeCount"]), (503, 5))
        self.assertNotIn("totalNumberOfCodes", counts)  # not an attribute of in-app purchase offer codes
        status, media, text = self.values(made["id"], IAP)
        self.assertEqual((status, media), (200, "text/csv"))
        codes = text.splitlines()
        self.assertEqual((len(codes), len(set(codes)), text), (3, 3, "".join(c + "\n" for c in codes)))
        self.assertTrue(all(re.match(r"^[A-Z0-9]{12}$", c) for c in codes), codes)
        self.assertEqual(self.values(made["id"], IAP)[2], text)
        self.assertEqual(self.values("nope", IAP)[0], 404)
        # the limits of subscription offer codes' codes
        self.assertError(self.batch(offer["id"], 0, owner=IAP, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        self.assertError(self.batch(offer["id"], 1, "2031-09-02", owner=IAP, expect=409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/expirationDate")
        self.assertError(self.custom(offer["id"], "GEMS-31", owner=IAP, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/customCode")
        # a subscription's offer code is not an in-app purchase's
        _, sub_offer = self.new_offer_code()
        self.batch(sub_offer["id"], owner=IAP, expect=404)
        self.call("DELETE", "%s/%s" % (BATCHES, made["id"]), expect=405)
        self.call("DELETE", "%s/%s" % (OFFERS, offer["id"]), expect=405)
        self.no_contract_failures()

    def test_deactivating_an_iap_offer_code_deactivates_its_codes_for_good(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        iap, offer = self.priced_iap_offer()
        first, second = self.batch(offer["id"], owner=IAP)["data"], self.batch(offer["id"], 4, owner=IAP)["data"]
        code = self.custom(offer["id"], "GEMS31", owner=IAP)["data"]
        self.assertEqual(self.set_active(BATCHES, BATCH_TYPE, first["id"], False)["data"]["attributes"]["active"], False)
        self.assertError(self.set_active(BATCHES, BATCH_TYPE, first["id"], True, 409), "STATE_ERROR",
                         "/data/attributes/active")
        self.assertEqual(self.set_active(OFFERS, OFFER_TYPE, offer["id"], None)["data"]["attributes"]["active"], True)
        self.assertError(self.set_active(OFFERS, OFFER_TYPE, offer["id"], False, 409, body_id="other"),
                         "ENTITY_ERROR.ID.INVALID", "/data/id")
        self.assertError(self.call("PATCH", "%s/%s" % (OFFERS, offer["id"]), {"data": {
            "type": OFFER_TYPE, "id": offer["id"], "attributes": {"name": "Renamed"}}}, 409)[1],
            "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", "/data/attributes/name")
        self.assertEqual(self.set_active(OFFERS, OFFER_TYPE, offer["id"], False)["data"]["attributes"]["active"], False)
        listed = self.call("GET", "/v2/inAppPurchases/%s/offerCodes?include=oneTimeUseCodes,customCodes" % iap["id"],
                           expect=200)[1]
        self.assertEqual(sorted((x["id"], x["attributes"]["active"]) for x in listed["included"]),
                         sorted((r["id"], False) for r in (first, second, code)))
        self.assertError(self.batch(offer["id"], 1, owner=IAP, expect=409), "STATE_ERROR",
                         "/data/relationships/offerCode")
        self.assertError(self.custom(offer["id"], "LATER", owner=IAP, expect=409), "STATE_ERROR",
                         "/data/relationships/offerCode")
        for path, type_, id_ in ((OFFERS, OFFER_TYPE, offer["id"]), (BATCHES, BATCH_TYPE, second["id"]),
                                 (CUSTOM, CUSTOM_TYPE, code["id"])):
            self.assertError(self.set_active(path, type_, id_, True, 409), "STATE_ERROR", "/data/attributes/active")
            self.set_active(path, type_, id_, False)
        self.assertEqual(len(self.values(second["id"], IAP)[2].splitlines()), 4)  # still downloadable
        self.no_contract_failures()

    # -- rules shared with subscriptions' offer codes
    def test_the_app_quarter_and_custom_codes_span_both_kinds_of_offer_code(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, sub_offer = self.new_offer_code()
        _, iap_offer = self.priced_iap_offer()
        # custom codes: unique in the app whatever the case, across subscriptions' and in-app purchases' offer codes
        self.custom(sub_offer["id"], "SPRING31", 1)
        self.assertError(self.custom(iap_offer["id"], "spring31", 1, owner=IAP, expect=409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "/data/attributes/customCode")
        self.custom(iap_offer["id"], "GEMS31", 1, owner=IAP)
        self.assertError(self.custom(sub_offer["id"], "Gems31", 1, expect=409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "/data/attributes/customCode")
        # the quarter's 1,000,000 production codes count both (2 so far)
        self.batch(sub_offer["id"], 999988)
        self.assertError(self.batch(iap_offer["id"], 11, owner=IAP, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        self.batch(iap_offer["id"], 10, owner=IAP)
        self.assertError(self.batch(sub_offer["id"], 1, expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                         "/data/attributes/numberOfCodes")
        self.assertError(self.custom(iap_offer["id"], "MORE31", 1, owner=IAP, expect=409),
                         "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/numberOfCodes")
        self.batch(iap_offer["id"], 10, environment="SANDBOX", owner=IAP)  # sandbox codes don't count
        self.fake.control("POST", "settings", {"today": "2031-04-01"})  # a new quarter
        self.batch(iap_offer["id"], 1, "2031-10-01", owner=IAP)
        self.no_contract_failures()

    def test_production_and_custom_codes_wait_for_the_purchases_approval(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        _, offer = self.priced_iap_offer()
        doc = self.batch(offer["id"], owner=IAP, approved=False, expect=409)
        self.assertError(doc, "STATE_ERROR", "/data/relationships/offerCode")
        self.assertError(self.custom(offer["id"], "GEMS31", owner=IAP, approved=False, expect=409), "STATE_ERROR",
                         "/data/relationships/offerCode")
        self.batch(offer["id"], environment="SANDBOX", owner=IAP, approved=False)
        self.fake.control("POST", "approve", {"appId": self.app, "productIds": ["com.example.gems"]})
        self.batch(offer["id"], owner=IAP, approved=False)
        self.custom(offer["id"], "GEMS31", owner=IAP, approved=False)

    def test_deleting_an_in_app_purchase_deletes_its_offer_codes(self):
        self.fake.control("POST", "settings", {"today": TODAY})
        iap, offer = self.priced_iap_offer()
        # Never submitted, so never approved: sandbox codes only (production and custom codes wait for approval).
        batch = self.batch(offer["id"], environment="SANDBOX", owner=IAP)["data"]
        self.call("DELETE", "/v2/inAppPurchases/" + iap["id"], expect=204)
        for path in ("%s/%s" % (OFFERS, offer["id"]), "%s/%s/prices" % (OFFERS, offer["id"]),
                     "%s/%s" % (BATCHES, batch["id"]), "/v2/inAppPurchases/%s/offerCodes" % iap["id"]):
            self.call("GET", path, expect=404)
        self.assertEqual(self.values(batch["id"], IAP)[0], 404)
        resources = self.fake.control("GET", "state")["resources"]
        self.assertEqual([t for t in NEW_TYPES if resources.get(t)], [])

    # -- the managed view
    def test_the_managed_view_shows_iap_offer_codes_by_name(self):
        self.fake.control("POST", "settings", {"today": TODAY})

        def build(order, eligibilities):
            iap = self.sold_iap()
            fra = self.iap_points(iap["id"], "FRA")
            offer = self.iap_offer(iap["id"], [("USA", self.iap_points(iap["id"], "USA")[0][0]), ("FRA", fra[3][0])],
                                   "Launch", eligibilities)["data"]
            steps = {"batch": lambda: self.batch(offer["id"], 20, "2031-08-01", owner=IAP),
                     "custom": lambda: self.custom(offer["id"], "GEMS31", 50, "2031-07-01", owner=IAP)}
            made = {step: steps[step]()["data"] for step in order}
            self.set_active(BATCHES, BATCH_TYPE, made["batch"]["id"], False)
            return offer, fra[3][1]
        offer, fra_price = build(["batch", "custom"], ("NON_SPENDER", "CHURNED_SPENDER"))
        self.create_iap("com.example.bare")
        view = self.fake.control("POST", "managed", {"appId": self.app})["inAppPurchases"]
        self.assertEqual(view["com.example.bare"]["offerCodes"], {})
        self.assertEqual(view["com.example.gems"]["offerCodes"], {"Launch": {
            "customerEligibilities": ["CHURNED_SPENDER", "NON_SPENDER"],
            "prices": {"USA": "0", "FRA": canonical(fra_price)}, "active": True,
            "oneTimeUseCodes": [{"numberOfCodes": 20, "expirationDate": "2031-08-01", "active": False,
                                 "environment": "PRODUCTION"}],
            "customCodes": [{"customCode": "GEMS31", "numberOfCodes": 50, "expirationDate": "2031-07-01",
                             "active": True}]}})
        self.assertNotIn(offer["id"], json.dumps(view))  # no ids
        # the same made in another order, in another app, on another day: the same view
        mine = self.app
        self.again_app()
        self.fake.control("POST", "settings", {"today": "2031-03-20"})
        build(["custom", "batch"], ("CHURNED_SPENDER", "NON_SPENDER"))
        self.assertEqual(self.iap_offer_codes_view(self.app), view["com.example.gems"]["offerCodes"])
        self.set_active(OFFERS, OFFER_TYPE, offer["id"], False)
        off = self.iap_offer_codes_view(mine)["Launch"]
        self.assertEqual((off["active"], {c["active"] for c in off["oneTimeUseCodes"] + off["customCodes"]}),
                         (False, {False}))

    # -- generated offer codes
    def test_generated_iap_offer_codes_are_ones_a_push_makes_again(self):
        """Generated in-app purchase offer codes are priced in the purchase's territories (all, or some), for some
        customers, and made again through the API in another app (when sold in a few territories) they show the same
        managed view; the same seed builds them again."""
        self.fake.control("POST", "settings", ROUND_TRIP)
        seen, again, replayed = set(), set(), False
        for seed in range(60):
            source = self.fake.control("POST", "apps", {"name": "S%d" % seed,
                                                        "bundleId": "com.example.s%d" % seed})["id"]
            used = self.fake.control("POST", "generate", {"appId": source, "seed": seed})
            view = self.fake.control("POST", "managed", {"appId": source})["inAppPurchases"]
            for product_id, classes in used["classes"].items():
                kinds = [c for c in classes if c in IAP_OFFER_CODE_CLASSES]
                seen.update(kinds)
                product = view.get(product_id)
                if product is None or "iap-offer-code" not in kinds:
                    continue
                (name, wanted), = product["offerCodes"].items()
                # Where the purchase is sold: everywhere it is, or the USA and a few others.
                sold = product["availability"]["territories"]
                if "iap-offer-code:some-territories" in kinds:
                    self.assertTrue("USA" in wanted["prices"] and set(wanted["prices"]) < set(sold), (seed, product_id))
                else:
                    self.assertEqual(sorted(wanted["prices"]), sold, (seed, product_id))
                self.assertTrue(set(wanted["customerEligibilities"]) <= {"NON_SPENDER", "ACTIVE_SPENDER",
                                                                         "CHURNED_SPENDER"})
                self.assertTrue(wanted["customerEligibilities"])
                free = {p == "0" for p in wanted["prices"].values()}
                self.assertEqual(free, {"iap-offer-code:free" in kinds}, (seed, product_id))
                if "iap-offer-code:paid" in kinds:
                    usa_today = float(product["prices"]["today"]["USA"])
                    self.assertLess(float(wanted["prices"].get("USA", usa_today - 1)), usa_today)
                kind = PRICE_KINDS.intersection(kinds)
                if len(wanted["prices"]) <= 4 and not kind <= again:
                    again |= kind
                    self.assertEqual(self.iap_offer_made_again(product, name, wanted), wanted, (seed, product_id))
            if not replayed and any(p["offerCodes"] for p in view.values()):
                replayed = True  # the same seed in another app: the same offer codes
                self.assertEqual(self.fake.control("POST", "generate", {"appId": self.again_app(), "seed": seed})
                                 ["classes"], used["classes"])
                self.assertEqual(self.fake.control("POST", "managed", {"appId": self.app})["inAppPurchases"], view)
        self.assertEqual(sorted(set(IAP_OFFER_CODE_CLASSES) - seen), [])
        self.assertEqual(again, PRICE_KINDS)
        self.no_contract_failures()

    def iap_offer_made_again(self, product, name, wanted):
        """Makes an in-app purchase's offer code as a push would, in an app of its own: the purchase sold where it
        is, the offer code at the points of its customer prices, its codes."""
        self.again_app()
        territories = product["availability"]["territories"]
        iap = self.sold_iap("com.example.again", territories)
        prices = []
        for territory in sorted(wanted["prices"]):
            by_price = {canonical(price): id_ for id_, price in reversed(self.iap_points(iap["id"], territory))}
            prices.append((territory, by_price[wanted["prices"][territory]]))
        offer = self.iap_offer(iap["id"], prices, name, wanted["customerEligibilities"])["data"]
        self.make_codes_again(offer["id"], wanted, IAP)
        return self.iap_offer_codes_view(self.app, "com.example.again")[name]
