"""Generated states: the same seed builds the same managed view in any app, every answer a generated state gives is
one the contract allows (with explicit nulls), the managed view tells apart what a catalog manages, and 200 seeds
build every class (as the round-trip test runs them)."""

# The round-trip test's settings: its today and thirty storefronts.
ROUND_TRIP = {"today": "2031-03-01", "storefronts": [
    "USA", "FRA", "GBR", "IND", "JPN", "BRA", "DEU", "CAN", "AUS", "MEX", "ALB", "ARE", "BHR", "CHE", "CHN", "CZE", "EGY",
    "ESP", "HUN", "IDN", "ITA", "KOR", "NER", "NOR", "POL", "SLB", "TJK", "TUR", "VNM", "ZAF"]}
# Classes of review bookkeeping every 200-seed run must build besides the catalog's own.
REVIEW_CLASSES = ["state:ready-to-submit", "app-version:none", "app-version:live", "app-version:editable"]
# Offer codes' codes (batches, custom codes, deactivated ones), drawn from a stream of their own.
OFFER_CODE_CLASSES = ["offer-code:batches", "offer-code:custom", "offer-code:inactive", "offer-code:batch-inactive",
                      "offer-code:custom-inactive", "offer-code:sandbox"]
# Offers set in some territories, and a paid one free in one of them, drawn from a stream of their own.
OFFER_TERRITORY_CLASSES = ["promotional:some-territories", "promotional:free-territory", "offer-code:some-territories",
                           "win-back:some-territories"]
# In-app purchases' offer codes, with their prices and codes, drawn from a stream of their own.
IAP_OFFER_CODE_CLASSES = ["iap-offer-code", "iap-offer-code:free", "iap-offer-code:paid", "iap-offer-code:some-territories",
                          "iap-offer-code:territory-price"] + ["iap-" + c for c in OFFER_CODE_CLASSES]
# Promotional images, drawn from a stream of their own.
IMAGE_CLASSES = ["image:none", "image:complete", "image:awaiting-upload"]
# API 4.5's multiseat settings of subscriptions, drawn from a stream of their own.
MULTISEAT_CLASSES = ["subscription:multiseat-on", "subscription:multiseat-off", "subscription:multiseat-some-markets",
                     "subscription:multiseat-family-shared", "subscription:multiseat-unset"]


class GeneratorCases:
    def generated(self, seed, bundle):
        app = self.fake.control("POST", "apps", {"name": bundle, "bundleId": bundle})["id"]
        used = self.fake.control("POST", "generate", {"appId": app, "seed": seed})
        return app, used

    def test_a_seed_builds_the_same_managed_view_in_any_app(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01"})
        first, used = self.generated(7, "com.example.first")
        second, _ = self.generated(7, "com.example.second")
        self.assertTrue(used["classes"])
        self.assertTrue(set(c for cs in used["classes"].values() for c in cs) <= set(used["allClasses"]))
        view = self.fake.control("POST", "managed", {"appId": first})
        self.assertEqual(view, self.fake.control("POST", "managed", {"appId": second}))
        other, _ = self.generated(8, "com.example.other")
        self.assertNotEqual(view, self.fake.control("POST", "managed", {"appId": other}))

    def test_generated_answers_keep_the_contract(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01", "explicitNulls": True})
        app, _ = self.generated(11, "com.example.nulls")
        for seed in range(12, 16):
            self.fake.control("POST", "generate", {"appId": app, "seed": seed})
        listing = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=appStoreReviewScreenshot&limit=200" % app,
                            expect=200)[1]
        self.assertTrue(any(v is None for item in listing["data"] for v in item["attributes"].values()))
        for group in self.call("GET", "/v1/apps/%s/subscriptionGroups" % app, expect=200)[1]["data"]:
            subs = self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?include=introductoryOffers,"
                             "planAvailabilities,promotedPurchase" % group["id"], expect=200)[1]["data"]
            for sub in subs:
                self.call("GET", "/v1/subscriptions/%s/winBackOffers?include=prices" % sub["id"], expect=200)
        promoted = self.call("GET", "/v1/apps/%s/promotedPurchases?include=inAppPurchaseV2,subscription&limit=200"
                             % app, expect=200)[1]
        self.assertTrue(promoted["data"])
        self.call("GET", "/v1/apps/%s/subscriptionGracePeriod" % app, expect=200)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_two_hundred_seeds_build_every_class(self):
        self.fake.control("POST", "settings", ROUND_TRIP)
        covered, every = set(), None
        for seed in range(200):
            _, used = self.generated(seed, "com.example.seed%d" % seed)
            covered.update(c for cs in used["classes"].values() for c in cs)
            covered.update(used["appClasses"])
            every = used["allClasses"]
        self.assertEqual(sorted(set(every) - covered), [])
        self.assertEqual(sorted(covered - set(every)), [])
        self.assertEqual(sorted(set(REVIEW_CLASSES) - covered), [])
        self.assertEqual(sorted(set(OFFER_CODE_CLASSES) - covered), [])
        self.assertEqual(sorted(set(IAP_OFFER_CODE_CLASSES) - covered), [])
        self.assertEqual(sorted(set(IMAGE_CLASSES) - covered), [])
        self.assertEqual(sorted(set(MULTISEAT_CLASSES) - covered), [])
        self.assertEqual(sorted(set(OFFER_TERRITORY_CLASSES) - covered), [])

    def test_deactivated_codes_are_history_the_managed_view_leaves_out_when_asked(self):
        """Generated deactivated custom codes, of both kinds of offer code, are held turned off; the managed view
        without deactivated codes (what a push to another app makes) has no offer code, batch or custom code turned
        off, and every active one as the whole view has it."""
        self.fake.control("POST", "settings", ROUND_TRIP)
        seen, both = set(), {"offer-code:custom-inactive", "iap-offer-code:custom-inactive"}
        for seed in range(200):
            app, used = self.generated(seed, "com.example.history%d" % seed)
            kinds = {c for cs in used["classes"].values() for c in cs if c in both}
            if not kinds - seen:
                continue
            seen |= kinds
            full = self.products_offer_codes(self.fake.control("POST", "managed", {"appId": app}))
            current = self.products_offer_codes(self.fake.control("POST", "managed", {"appId": app, "deactivated": False}))
            for product_id, classes in used["classes"].items():
                if set(classes) & both:
                    self.assertIn(False, [c["active"] for o in full[product_id].values() for c in o["customCodes"]])
            for product_id, offers in full.items():
                wanted = {name: dict(o, oneTimeUseCodes=[b for b in o["oneTimeUseCodes"] if b["active"]],
                                     customCodes=[c for c in o["customCodes"] if c["active"]])
                          for name, o in offers.items() if o["active"]}
                self.assertEqual(current[product_id], wanted, (seed, product_id))
            if seen == both:
                break
        self.assertEqual(seen, both)

    @staticmethod
    def products_offer_codes(view):
        """{productId: its offer codes' views}, in-app purchases' and subscriptions'."""
        products = dict(view["inAppPurchases"])
        for group in view["subscriptionGroups"].values():
            products.update(group["subscriptions"])
        return {product_id: product["offerCodes"] for product_id, product in products.items()}

    def test_generated_review_states_match_their_classes(self):
        self.fake.control("POST", "settings", dict(ROUND_TRIP, explicitNulls=True))
        seen = set()
        for seed in list(range(30)) + [38, 73]:  # 38 and 73 build a subscription and an in-app purchase ready to submit
            app, used = self.generated(seed, "com.example.review%d" % seed)
            products = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?limit=200" % app, expect=200)[1]["data"]
            for group in self.call("GET", "/v1/apps/%s/subscriptionGroups" % app, expect=200)[1]["data"]:
                products += self.call("GET", "/v1/subscriptionGroups/%s/subscriptions" % group["id"], expect=200)[1]["data"]
            states = {p["attributes"]["productId"]: p["attributes"]["state"] for p in products}
            for product_id, classes in used["classes"].items():
                if "state:ready" in classes:
                    # ready to submit exactly when it holds every part review needs; else its metadata is missing
                    self.assertEqual(states[product_id], "READY_TO_SUBMIT" if "state:ready-to-submit" in classes
                                     else "MISSING_METADATA", (seed, product_id, classes))
                    seen.add(states[product_id])
            versions = [v["attributes"]["appVersionState"] for v in self.call(
                "GET", "/v1/apps/%s/appStoreVersions" % app, expect=200)[1]["data"]]
            kind = [c for c in used["appClasses"] if c.startswith("app-version:")]
            self.assertEqual(len(kind), 1)
            self.assertEqual(kind[0] == "app-version:none", versions == [], (seed, versions))
            self.assertEqual(kind[0] == "app-version:live", versions == ["READY_FOR_DISTRIBUTION"], (seed, versions))
        self.assertEqual(seen, {"READY_TO_SUBMIT", "MISSING_METADATA"})
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_the_managed_view_leaves_out_what_a_catalog_does_not_manage(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01"})
        app, used = self.generated(3, "com.example.view")
        view = self.fake.control("POST", "managed", {"appId": app})
        self.assertEqual(set(view), {"inAppPurchases", "subscriptionGroups", "subscriptionGracePeriod",
                                     "promotedPurchases"})
        for promoted in view["promotedPurchases"]:  # the order's entries, without App Store Connect's review state
            self.assertEqual(set(promoted), {"productId", "visibleForAllUsers", "enabled"})
        for product in view["inAppPurchases"].values():
            self.assertNotIn("state", product)
            prices = product["prices"]
            if prices:  # today's prices and the scheduled ones, no history
                self.assertEqual(set(prices), {"today", "scheduled", "baseTerritory"})
        self.assertEqual(self.fake.request("POST", "/__fake/managed", {"appId": "nope"}, auth=False)[0], 400)
        self.assertEqual(self.fake.request("POST", "/__fake/generate", {"appId": app, "seed": "x"}, auth=False)[0], 400)
