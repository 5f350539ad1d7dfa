"""Territory price grids in their currencies, today and the Date header, scheduled prices (start dates, existing
subscribers kept, withdrawal) and an in-app purchase's equalized (automatic) prices."""

import email.utils


class PriceCases:
    def test_territory_grids_follow_their_currency(self):
        iap = self.create_iap()["data"]
        path = "/v2/inAppPurchases/" + iap["id"]
        doc = self.call("GET", path + "/pricePoints?filter[territory]=IND,JPN,BRA&include=territory&limit=8000",
                        expect=200)[1]
        by_territory = {}
        for point in doc["data"]:
            by_territory.setdefault(point["relationships"]["territory"]["data"]["id"], []).append(
                point["attributes"]["customerPrice"])
        self.assertTrue(all(p.isdigit() and p.endswith("9") for p in by_territory["IND"] if p != "0.0"))
        self.assertTrue(all(p.isdigit() and p.endswith("0") for p in by_territory["JPN"] if p != "0.0"))
        self.assertTrue(all(p.endswith(".90") for p in by_territory["BRA"] if p != "0.0"))
        self.assertIn("99", by_territory["IND"])
        # A price point of one territory is refused for another (here: India's point sent as Japan's).
        self.assertNotEqual(self.point(path, "IND", "99"), self.point(path, "JPN", "160"))

    def test_today_is_a_setting_and_the_date_header_says_it(self):
        self.fake.control("POST", "settings", {"today": "2027-03-04"})
        _, _, headers = self.call("GET", "/v1/apps", expect=200)
        date = email.utils.parsedate_to_datetime(headers["Date"])
        self.assertEqual(date.date().isoformat(), "2027-03-04")
        status = self.fake.request("POST", "/__fake/settings", {"today": "2027-02-30"}, auth=False)[0]
        self.assertEqual(status, 400)

    def test_scheduled_subscription_prices_start_after_today_and_can_be_withdrawn(self):
        self.fake.control("POST", "settings", {"today": "2026-11-23"})
        _, sub = self.create_group_and_subscription()
        path = "/v1/subscriptions/" + sub["id"]
        self.patch_subscription(sub["id"], [self.price_item("${price-1}", self.point(path, price="4.99"))])
        past = self.patch_subscription(sub["id"], [self.price_item(
            "${price-1}", self.point(path, price="5.99"), startDate="2026-11-23", preserveCurrentPrice=True)], expect=409)
        self.assertError(past, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/included/0/attributes/startDate")
        self.patch_subscription(sub["id"], [self.price_item(
            "${price-1}", self.point(path, price="5.99"), startDate="2027-01-15", preserveCurrentPrice=True)])
        scheduled = [p for p in self.state("subscriptionPrices") if p["attributes"].get("startDate") == "2027-01-15"]
        self.assertEqual(len(scheduled), 1)
        self.assertTrue(scheduled[0]["attributes"]["preserved"])
        current = [p for p in self.state("subscriptionPrices") if p["attributes"].get("startDate") is None][0]
        self.call("DELETE", "/v1/subscriptionPrices/" + current["id"], expect=409)
        self.call("DELETE", "/v1/subscriptionPrices/" + scheduled[0]["id"], expect=204)
        self.assertEqual(len(self.state("subscriptionPrices")), 1)

    def test_equalized_in_app_purchase_prices_follow_each_base_price(self):
        self.fake.control("POST", "settings", {"today": "2026-11-23"})
        iap = self.create_iap()["data"]
        path = "/v2/inAppPurchases/" + iap["id"]

        def manual(local_id, point, start=None):
            return {"type": "inAppPurchasePrices", "id": local_id, "attributes": {"startDate": start},
                    "relationships": {"inAppPurchaseV2": self.linkage("inAppPurchases", iap["id"]),
                                      "inAppPurchasePricePoint": self.linkage("inAppPurchasePricePoints", point)}}
        items = [manual("${p1}", self.point(path, price="0.99")), manual("${p2}", self.point(path, "IND", "99")),
                 manual("${p3}", self.point(path, price="1.29"), "2027-01-15")]
        body = {"data": {"type": "inAppPurchasePriceSchedules", "relationships": {
            "inAppPurchase": self.linkage("inAppPurchases", iap["id"]),
            "baseTerritory": self.linkage("territories", "USA"),
            "manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": i["id"]} for i in items]}}},
            "included": items}
        schedule = self.call("POST", "/v1/inAppPurchasePriceSchedules", body, 201)[1]["data"]
        doc = self.call("GET", "/v1/inAppPurchasePriceSchedules/%s/automaticPrices?filter[territory]=IND,JPN"
                        "&include=inAppPurchasePricePoint,territory&limit=200" % schedule["id"], expect=200)[1]
        territories = {p["relationships"]["territory"]["data"]["id"] for p in doc["data"]}
        self.assertEqual(territories, {"JPN"})  # India is priced by hand
        self.assertEqual(sorted(p["attributes"].get("startDate") or "" for p in doc["data"]), ["", "2027-01-15"])
        prices = sorted(i["attributes"]["customerPrice"] for i in doc["included"]
                        if i["type"] == "inAppPurchasePricePoints")
        self.assertEqual(prices, ["150", "190"])
