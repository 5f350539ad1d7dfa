"""PATCH /v1/subscriptions with inline creates, DELETE of introductory offer linkages, and the first price that a
POST /v1/subscriptionPrices can't set."""

import json


def intro_item(local_id, territory, mode="FREE_TRIAL", duration="ONE_WEEK", periods=1, point=None):
    rels = {"territory": {"data": {"type": "territories", "id": territory}}}
    if point:
        rels["subscriptionPricePoint"] = {"data": {"type": "subscriptionPricePoints", "id": point}}
    return {"type": "subscriptionIntroductoryOffers", "id": local_id, "relationships": rels,
            "attributes": {"duration": duration, "offerMode": mode, "numberOfPeriods": periods}}


def promo_item(local_id, code, mode="PAY_AS_YOU_GO", duration="ONE_MONTH", periods=2):
    return {"type": "subscriptionPromotionalOffers", "id": local_id,
            "attributes": {"name": "Promo " + code, "offerCode": code, "duration": duration, "offerMode": mode,
                           "numberOfPeriods": periods}}


class SubscriptionWriteCases:
    def post_price(self, sub_id, point, expect):
        return self.call("POST", "/v1/subscriptionPrices", {"data": {
            "type": "subscriptionPrices",
            "relationships": {"subscription": self.linkage("subscriptions", sub_id),
                              "subscriptionPricePoint": self.linkage("subscriptionPricePoints", point)}}}, expect)[1]

    def test_first_price_by_post_fails(self):
        group, sub = self.create_group_and_subscription()
        path = "/v1/subscriptions/" + sub["id"]
        doc = self.post_price(sub["id"], self.point(path, price="4.99"), 500)
        self.assertEqual((doc["errors"][0]["code"], doc["errors"][0]["status"]), ("UNEXPECTED_ERROR", "500"))
        self.assertEqual(self.state("subscriptionPrices"), [])
        self.patch_subscription(sub["id"], [self.price_item("${price-1}", self.point(path, price="4.99"))])
        self.post_price(sub["id"], self.point(path, "FRA", self.fake_price(path, "FRA")), 201)  # later prices: POST
        self.assertEqual(len(self.state("subscriptionPrices")), 2)
        self.fake.control("POST", "settings", {"firstPriceByPostFails": False})
        other = self.call("POST", "/v1/subscriptions", {"data": {
            "type": "subscriptions", "attributes": {"productId": "com.example.other", "name": "Other"},
            "relationships": {"group": self.linkage("subscriptionGroups", group["id"])}}},
            201)[1]["data"]
        self.post_price(other["id"], self.point("/v1/subscriptions/" + other["id"], price="0.99"), 201)

    def fake_price(self, owner_path, territory):
        """Some customer price of a territory's grid."""
        doc = self.call("GET", "%s/pricePoints?filter[territory]=%s&limit=20" % (owner_path, territory), expect=200)[1]
        return doc["data"][10]["attributes"]["customerPrice"]

    def test_patch_creates_prices_and_offers_inline(self):
        _, sub = self.create_group_and_subscription()
        path = "/v1/subscriptions/" + sub["id"]
        usa, fra = self.point(path, price="9.99"), self.point(path, "FRA", self.fake_price(path, "FRA"))
        cheap = self.point(path, price="0.99")
        doc = self.patch_subscription(sub["id"], [
            self.price_item("${price-usa}", usa, "USA", startDate=None),
            intro_item("${intro-usa}", "USA"),
            self.price_item("${price-fra}", fra),
            intro_item("${intro-fra}", "FRA", "PAY_AS_YOU_GO", "ONE_MONTH", 3, fra),
            promo_item("${promo}", "WINTER")], attributes={"name": "Pro Monthly Renamed"})
        self.assertEqual((doc["data"]["type"], doc["data"]["id"]), ("subscriptions", sub["id"]))
        self.assertEqual(doc["data"]["attributes"]["name"], "Pro Monthly Renamed")
        prices = self.call("GET", path + "/prices?include=territory", expect=200)[1]["data"]
        self.assertEqual(sorted(p["relationships"]["territory"]["data"]["id"] for p in prices), ["FRA", "USA"])
        self.assertNotIn("${", json.dumps(prices))  # local ids name items in the request only
        intros = self.call("GET", path + "/introductoryOffers?include=territory", expect=200)[1]["data"]
        self.assertEqual(sorted((o["relationships"]["territory"]["data"]["id"], o["attributes"]["offerMode"])
                                for o in intros), [("FRA", "PAY_AS_YOU_GO"), ("USA", "FREE_TRIAL")])
        promos = self.call("GET", path + "/promotionalOffers?include=prices", expect=200)[1]["data"]
        self.assertEqual([(o["attributes"]["offerCode"], o["relationships"]["prices"]["data"]) for o in promos],
                         [("WINTER", [])])
        # an inline price for a territory and date that has one replaces it, as a POST would
        self.patch_subscription(sub["id"], [self.price_item("${again}", cheap)])
        usa_prices = [p for p in self.state("subscriptionPrices")
                      if p["relationships"]["territory"]["data"]["id"] == "USA"]
        self.assertEqual([p["relationships"]["subscriptionPricePoint"]["data"]["id"] for p in usa_prices], [cheap])
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_patch_inline_creates_are_all_or_nothing(self):
        group, sub = self.create_group_and_subscription()
        path = "/v1/subscriptions/" + sub["id"]
        other = self.call("POST", "/v1/subscriptions", {"data": {
            "type": "subscriptions", "attributes": {"productId": "com.example.other", "name": "Other"},
            "relationships": {"group": self.linkage("subscriptionGroups", group["id"])}}}, 201)[1]["data"]
        usa, foreign = self.point(path, price="4.99"), self.point("/v1/subscriptions/" + other["id"], price="4.99")
        refusals = [  # (included, error code, pointer)
            ([self.price_item("${a}", usa), intro_item("${i}", "USA"), self.price_item("${b}", foreign)],
             "ENTITY_ERROR.RELATIONSHIP.INVALID", "/included/2/relationships/subscriptionPricePoint"),
            ([self.price_item("${a}", usa, "FRA")], "ENTITY_ERROR.RELATIONSHIP.INVALID",
             "/included/0/relationships/territory"),
            ([self.price_item("${a}", usa), self.price_item("${b}", usa)], "ENTITY_ERROR.INCLUDED.INVALID", "/included/1"),
            ([intro_item("${i}", "USA"), intro_item("${j}", "USA")], "ENTITY_ERROR.RELATIONSHIP.INVALID.DUPLICATE",
             "/included/1/relationships/territory"),
            ([intro_item("${i}", "XYZ")], "ENTITY_ERROR.INCLUDED.INVALID", "/included/0/relationships/territory"),
            ([intro_item("${i}", "USA", "PAY_UP_FRONT", "ONE_WEEK")], "ENTITY_ERROR.ATTRIBUTE.INVALID",
             "/included/0/attributes/duration"),
            ([promo_item("${p}", "A"), promo_item("${q}", "A")], "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
             "/included/1/attributes/offerCode"),
            ([dict(self.price_item("${a}", usa), relationships=dict(
                self.price_item("${a}", usa)["relationships"], subscription=self.linkage("subscriptions", other["id"])))],
             "ENTITY_ERROR.INCLUDED.INVALID", "/included/0/relationships/subscription"),
            ([dict(promo_item("${p}", "B"), relationships={"prices": {"data": [
                {"type": "subscriptionPromotionalOfferPrices", "id": "${pp}"}]}})],
             "ENTITY_ERROR.INCLUDED.INVALID", "/included/0/relationships/prices"),
        ]
        for included, code, pointer in refusals:
            doc = self.patch_subscription(sub["id"], included, attributes={"name": "Changed"}, expect=409)
            self.assertError(doc, code, pointer)
        # linkages and included must match each other
        doc = self.patch_subscription(sub["id"], [], expect=409, relationships={"prices": {"data": [
            {"type": "subscriptionPrices", "id": "${missing}"}]}})
        self.assertError(doc, "ENTITY_ERROR.INCLUDED.INVALID", "/data/relationships/prices/data/0")
        doc = self.patch_subscription(sub["id"], [self.price_item("${a}", usa)], expect=409, relationships={})
        self.assertError(doc, "ENTITY_ERROR.INCLUDED.INVALID", "/included/0")
        self.assertEqual([x["attributes"]["name"] for x in self.state("subscriptions") if x["id"] == sub["id"]],
                         ["Pro Monthly"])
        for type_ in ("subscriptionPrices", "subscriptionIntroductoryOffers", "subscriptionPromotionalOffers"):
            self.assertEqual(self.state(type_), [], type_)
        # with ten promotional offers, an eleventh inline one is refused
        self.patch_subscription(sub["id"], [promo_item("${p%d}" % n, "P%d" % n) for n in range(10)])
        doc = self.patch_subscription(sub["id"], [promo_item("${p10}", "P10")], expect=409)
        self.assertIn("at most 10", doc["errors"][0]["detail"])

    def test_delete_introductory_offer_linkages(self):
        group, sub = self.create_group_and_subscription()
        other = self.call("POST", "/v1/subscriptions", {"data": {
            "type": "subscriptions", "attributes": {"productId": "com.example.other", "name": "Other"},
            "relationships": {"group": self.linkage("subscriptionGroups", group["id"])}}}, 201)[1]["data"]
        self.patch_subscription(sub["id"], [intro_item("${%s}" % t, t) for t in ("USA", "FRA", "DEU")])
        self.patch_subscription(other["id"], [intro_item("${usa}", "USA")])
        path = "/v1/subscriptions/%s/relationships/introductoryOffers" % sub["id"]
        mine = {o["relationships"]["territory"]["data"]["id"]: o["id"] for o in
                self.call("GET", "/v1/subscriptions/%s/introductoryOffers?include=territory" % sub["id"],
                          expect=200)[1]["data"]}
        theirs = self.call("GET", "/v1/subscriptions/%s/introductoryOffers" % other["id"], expect=200)[1]["data"][0]["id"]

        def links(*ids):
            return {"data": [{"type": "subscriptionIntroductoryOffers", "id": i} for i in ids]}
        self.call("DELETE", path, links(mine["USA"], mine["FRA"]), 204)
        left = self.call("GET", "/v1/subscriptions/%s/introductoryOffers" % sub["id"], expect=200)[1]["data"]
        self.assertEqual([o["id"] for o in left], [mine["DEU"]])
        _, doc, _ = self.call("DELETE", path, links(mine["DEU"], theirs), 409)
        self.assertError(doc, "ENTITY_ERROR.RELATIONSHIP.INVALID", "/data/1")
        _, doc, _ = self.call("DELETE", path, links("no-such-offer"), 404)
        self.assertError(doc, "NOT_FOUND", "/data/0")
        _, doc, _ = self.call("DELETE", path, {"data": [{"type": "subscriptionPrices", "id": mine["DEU"]}]}, 409)
        self.assertEqual(len(self.state("subscriptionIntroductoryOffers")), 2)  # refused requests remove nothing
        status, _, _ = self.call("DELETE", path, raw=b"{}", headers={"Content-Type": "text/plain"})
        self.assertEqual(status, 415)
        self.call("DELETE", "/v1/subscriptions/999/relationships/introductoryOffers", links(mine["DEU"]), 404)
        self.call("DELETE", path, links(mine["DEU"]), 204)
        self.assertEqual([o["id"] for o in self.state("subscriptionIntroductoryOffers")], [theirs])
        log = [r for r in self.fake.control("GET", "requests")["requests"] if r["method"] == "DELETE"]
        self.assertEqual({r["operation"] for r in log}, {"subscriptions_introductoryOffers_deleteToManyRelationship"})
