"""Generated states: the same seed builds the same managed view in any app, every answer a generated state gives is
one the contract allows (with explicit nulls), and the managed view tells apart what a catalog manages."""


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
            self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?include=introductoryOffers,planAvailabilities"
                      % group["id"], expect=200)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_the_managed_view_leaves_out_what_a_catalog_does_not_manage(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01"})
        app, used = self.generated(3, "com.example.view")
        view = self.fake.control("POST", "managed", {"appId": app})
        for product in view["inAppPurchases"].values():
            self.assertNotIn("state", product)
            prices = product["prices"]
            if prices:  # today's prices and the scheduled ones, no history
                self.assertEqual(set(prices), {"today", "scheduled", "baseTerritory"})
        self.assertEqual(self.fake.request("POST", "/__fake/managed", {"appId": "nope"}, auth=False)[0], 400)
        self.assertEqual(self.fake.request("POST", "/__fake/generate", {"appId": app, "seed": "x"}, auth=False)[0], 400)
