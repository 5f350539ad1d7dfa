"""The product flows iapkit pushes: in-app purchases, price points, versions, review screenshots, subscription
offers."""

import hashlib
import os


class ProductCases:
    # -- the in-app purchase flow iapkit pushes
    def test_accepts_iap_flow(self):
        status, doc, headers = self.call("GET", "/v1/apps?filter[bundleId]=com.example.demo", expect=200)
        self.assertEqual([a["id"] for a in doc["data"]], [self.app])
        self.assertRegex(headers["X-Rate-Limit"], r"^user-hour-lim:3600;user-hour-rem:\d+;$")
        iap = self.create_iap("com.example.unlock", "NON_CONSUMABLE", familySharable=True)["data"]
        self.assertEqual(iap["attributes"]["state"], "MISSING_METADATA")
        version = self.call("POST", "/v1/inAppPurchaseVersions", {"data": {
            "type": "inAppPurchaseVersions",
            "relationships": {"inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap["id"]}}}}}, 201)[1]["data"]
        self.assertEqual(version["attributes"], {"version": 1, "state": "PREPARE_FOR_SUBMISSION"})
        loc = self.call("POST", "/v2/inAppPurchaseLocalizations", {"data": {
            "type": "inAppPurchaseLocalizations",
            "attributes": {"locale": "en-US", "name": "Unlock", "description": "Unlocks everything"},
            "relationships": {"version": {"data": {"type": "inAppPurchaseVersions", "id": version["id"]}}}}}, 201)[1]
        self.call("PATCH", "/v2/inAppPurchaseLocalizations/" + loc["data"]["id"], {"data": {
            "type": "inAppPurchaseLocalizations", "id": loc["data"]["id"], "attributes": {"name": "Unlock all"}}}, 200)
        self.call("POST", "/v1/inAppPurchaseAvailabilities", {"data": {
            "type": "inAppPurchaseAvailabilities", "attributes": {"availableInNewTerritories": True},
            "relationships": {"inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap["id"]}},
                              "availableTerritories": {"data": [{"type": "territories", "id": t}
                                                                for t in ("USA", "FRA", "JPN")]}}}}, 201)
        point = self.point("/v2/inAppPurchases/" + iap["id"], price="4.99")
        schedule = self.call("POST", "/v1/inAppPurchasePriceSchedules", {
            "data": {"type": "inAppPurchasePriceSchedules", "relationships": {
                "inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap["id"]}},
                "baseTerritory": {"data": {"type": "territories", "id": "USA"}},
                "manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": "${price-usa}"}]}}},
            "included": [{"type": "inAppPurchasePrices", "id": "${price-usa}", "attributes": {"startDate": None},
                          "relationships": {
                              "inAppPurchaseV2": {"data": {"type": "inAppPurchases", "id": iap["id"]}},
                              "inAppPurchasePricePoint": {"data": {"type": "inAppPurchasePricePoints", "id": point}}}}]},
            201)[1]["data"]
        versions = self.call("GET", "/v2/inAppPurchases/%s/versions?include=localizations" % iap["id"], expect=200)[1]
        self.assertEqual([x["attributes"]["name"] for x in versions["included"]], ["Unlock all"])
        territories = self.call("GET", "/v2/inAppPurchases/%s/inAppPurchaseAvailability" % iap["id"], expect=200)[1]
        terr = self.call("GET", "/v1/inAppPurchaseAvailabilities/%s/availableTerritories" % territories["data"]["id"],
                         expect=200)[1]
        self.assertEqual(sorted(t["id"] for t in terr["data"]), ["FRA", "JPN", "USA"])
        self.assertEqual(self.call("GET", "/v2/inAppPurchases/%s/iapPriceSchedule" % iap["id"], expect=200)[1]
                         ["data"]["id"], schedule["id"])
        prices = self.call("GET", "/v1/inAppPurchasePriceSchedules/%s/manualPrices?include=inAppPurchasePricePoint,"
                                  "territory" % schedule["id"], expect=200)[1]
        self.assertEqual(len(prices["data"]), 1)
        self.assertIn({"type": "territories", "id": "USA"},
                      [{"type": x["type"], "id": x["id"]} for x in prices["included"]])
        self.assertIn("4.99", [x["attributes"].get("customerPrice") for x in prices["included"]])
        # a new schedule replaces the old one
        self.call("POST", "/v1/inAppPurchasePriceSchedules", {
            "data": {"type": "inAppPurchasePriceSchedules", "relationships": {
                "inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap["id"]}},
                "baseTerritory": {"data": {"type": "territories", "id": "USA"}},
                "manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": "${p}"}]}}},
            "included": [{"type": "inAppPurchasePrices", "id": "${p}", "relationships": {
                "inAppPurchasePricePoint": {"data": {"type": "inAppPurchasePricePoints",
                                                     "id": self.point("/v2/inAppPurchases/" + iap["id"], price="0.99")}}}}]},
            201)
        state = self.fake.control("GET", "state")["resources"]
        self.assertEqual(len(state["inAppPurchasePrices"]), 1)
        validations = self.fake.control("GET", "validations")
        self.assertEqual(validations["mode"], "openapi" if self.openapi else "builtin")
        self.assertGreater(validations["requestBodiesValidated"], 5)
        self.assertEqual(validations["responseFailures"], [])

    def test_price_points_and_equalizations(self):
        iap = self.create_iap()["data"]
        doc = self.call("GET", "/v2/inAppPurchases/%s/pricePoints?filter[territory]=USA&limit=8000" % iap["id"],
                        expect=200)[1]
        self.assertEqual(doc["meta"]["paging"]["total"], 801)
        prices = [p["attributes"]["customerPrice"] for p in doc["data"]]
        self.assertEqual((prices[0], prices[1], prices[-1]), ("0.00", "0.29", "1000.00"))
        other = self.create_iap("com.example.coins")["data"]
        self.assertNotEqual(doc["data"][5]["id"], self.point("/v2/inAppPurchases/" + other["id"], price=prices[5]))
        _, sub = self.create_group_and_subscription()
        point = self.point("/v1/subscriptions/" + sub["id"], price="9.99")
        eq = self.call("GET", "/v1/subscriptionPricePoints/%s/equalizations?include=territory&limit=200" % point,
                       expect=200)[1]
        self.assertEqual(eq["meta"]["paging"]["total"], 174)
        self.assertNotIn("USA", [p["relationships"]["territory"]["data"]["id"] for p in eq["data"]])

    def test_versions_and_localizations(self):
        iap = self.create_iap()["data"]
        body = {"data": {"type": "inAppPurchaseVersions", "relationships": {
            "inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap["id"]}}}}}
        version = self.call("POST", "/v1/inAppPurchaseVersions", body, 201)[1]["data"]
        self.call("POST", "/v1/inAppPurchaseVersions", body, 409)
        loc = {"data": {"type": "inAppPurchaseLocalizations", "attributes": {"locale": "fr-FR", "name": "Gemmes"},
                        "relationships": {"version": {"data": {"type": "inAppPurchaseVersions", "id": version["id"]}}}}}
        self.call("POST", "/v2/inAppPurchaseLocalizations", loc, 201)
        self.call("POST", "/v2/inAppPurchaseLocalizations", loc, 409)
        loc["data"]["attributes"] = {"locale": "xx-YY", "name": "?"}
        self.call("POST", "/v2/inAppPurchaseLocalizations", loc, 409)
        loc["data"]["attributes"] = {"locale": "de-DE", "name": "x" * 36}
        self.call("POST", "/v2/inAppPurchaseLocalizations", loc, 409)

    def test_screenshot_upload(self):
        iap = self.create_iap()["data"]
        blob = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (640).to_bytes(4, "big") + (960).to_bytes(4, "big") + \
            os.urandom(10000)

        def reserve():
            return self.call("POST", "/v1/inAppPurchaseAppStoreReviewScreenshots", {"data": {
                "type": "inAppPurchaseAppStoreReviewScreenshots", "attributes": {"fileName": "s.png",
                                                                              "fileSize": len(blob)},
                "relationships": {"inAppPurchaseV2": {"data": {"type": "inAppPurchases", "id": iap["id"]}}}}},
                201)[1]["data"]

        def commit(shot, checksum):
            return self.call("PATCH", "/v1/inAppPurchaseAppStoreReviewScreenshots/" + shot["id"], {"data": {
                "type": "inAppPurchaseAppStoreReviewScreenshots", "id": shot["id"],
                "attributes": {"uploaded": True, "sourceFileChecksum": checksum}}}, 200)[1]["data"]

        def upload(shot):
            ops = shot["attributes"]["uploadOperations"]
            self.assertEqual(len(ops), 2)
            for op in ops:
                hdrs = {h["name"]: h["value"] for h in op["requestHeaders"]}
                status, _, _ = self.fake.request(op["method"], op["url"], raw=blob[op["offset"]:op["offset"] + op["length"]],
                                                 headers=hdrs, auth=False)
                self.assertEqual(status, 200)

        shot = reserve()
        self.call("POST", "/v1/inAppPurchaseAppStoreReviewScreenshots", {"data": {
            "type": "inAppPurchaseAppStoreReviewScreenshots", "attributes": {"fileName": "s.png", "fileSize": 10},
            "relationships": {"inAppPurchaseV2": {"data": {"type": "inAppPurchases", "id": iap["id"]}}}}}, 409)
        upload(shot)
        done = commit(shot, hashlib.md5(blob).hexdigest())
        self.assertEqual(done["attributes"]["assetDeliveryState"]["state"], "COMPLETE")
        self.assertEqual((done["attributes"]["imageAsset"]["width"], done["attributes"]["imageAsset"]["height"]),
                         (640, 960))
        self.call("DELETE", "/v1/inAppPurchaseAppStoreReviewScreenshots/" + shot["id"], expect=204)
        shot = reserve()
        upload(shot)
        failed = commit(shot, hashlib.md5(b"something else").hexdigest())
        self.assertEqual(failed["attributes"]["assetDeliveryState"]["state"], "FAILED")
        self.assertEqual(failed["attributes"]["assetDeliveryState"]["errors"][0]["code"], "CHECKSUM_MISMATCH")
        got = self.call("GET", "/v2/inAppPurchases/%s/appStoreReviewScreenshot" % iap["id"], expect=200)[1]
        self.assertEqual(got["data"]["attributes"]["assetDeliveryState"]["state"], "FAILED")

    # -- subscriptions and offers
    def test_subscription_offers(self):
        _, sub = self.create_group_and_subscription()
        point = self.point("/v1/subscriptions/" + sub["id"], price="4.99")
        self.patch_subscription(sub["id"], [self.price_item("${usa}", point)])  # the first price: PATCH inline
        self.call("POST", "/v1/subscriptionPrices", {"data": {  # later ones: POST
            "type": "subscriptionPrices", "attributes": {"startDate": None, "preserveCurrentPrice": False},
            "relationships": {"subscription": {"data": {"type": "subscriptions", "id": sub["id"]}},
                              "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": point}}}}},
            201)
        self.assertEqual(len(self.call("GET", "/v1/subscriptions/%s/prices?include=subscriptionPricePoint,territory"
                                       % sub["id"], expect=200)[1]["data"]), 1)
        intro = {"data": {"type": "subscriptionIntroductoryOffers",
                          "attributes": {"duration": "ONE_WEEK", "offerMode": "FREE_TRIAL", "numberOfPeriods": 1},
                          "relationships": {"subscription": {"data": {"type": "subscriptions", "id": sub["id"]}},
                                            "territory": {"data": {"type": "territories", "id": "USA"}}}}}
        self.call("POST", "/v1/subscriptionIntroductoryOffers", intro, 201)
        self.call("POST", "/v1/subscriptionIntroductoryOffers", intro, 409)
        cheap = self.point("/v1/subscriptions/" + sub["id"], price="0.99")

        def promo(n, code=None):
            return {"data": {"type": "subscriptionPromotionalOffers",
                             "attributes": {"name": "Promo %d" % n, "offerCode": code or "PROMO%d" % n,
                                            "duration": "ONE_MONTH", "offerMode": "PAY_AS_YOU_GO", "numberOfPeriods": 2},
                             "relationships": {"subscription": {"data": {"type": "subscriptions", "id": sub["id"]}},
                                               "prices": {"data": [{"type": "subscriptionPromotionalOfferPrices",
                                                                    "id": "${p%d}" % n}]}}},
                    "included": [{"type": "subscriptionPromotionalOfferPrices", "id": "${p%d}" % n, "relationships": {
                        "territory": {"data": {"type": "territories", "id": "USA"}},
                        "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": cheap}}}}]}
        for n in range(10):
            self.call("POST", "/v1/subscriptionPromotionalOffers", promo(n), 201)
        _, doc, _ = self.call("POST", "/v1/subscriptionPromotionalOffers", promo(10), 409)
        self.assertIn("at most 10", doc["errors"][0]["detail"])
        offers = self.call("GET", "/v1/subscriptions/%s/promotionalOffers?include=prices&limit=50" % sub["id"],
                           expect=200)[1]
        self.assertEqual(len(offers["data"]), 10)
        self.call("DELETE", "/v1/subscriptionPromotionalOffers/" + offers["data"][0]["id"], expect=204)
        self.call("POST", "/v1/subscriptionPromotionalOffers", promo(11, code="PROMO3"), 409)
        bad = promo(12)
        bad["data"]["attributes"]["duration"] = "ONE_YEAR"  # pay as you go bills every period of the subscription
        self.call("POST", "/v1/subscriptionPromotionalOffers", bad, 409)
        self.call("POST", "/v1/subscriptionPromotionalOffers", promo(13), 201)
