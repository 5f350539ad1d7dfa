"""How App Store Connect shapes its answers, as recorded answers and Apple's documentation examples show them:
linkage only for the relationships a request includes (links otherwise), included resources without linkage, a
price schedule's base territory known only through include=baseTerritory, attributes without a value answered
null, and in-app purchases made before 2023 (`availableInAllTerritories`, no availability relationship), seeded and
generated."""

TERRITORIES = ["USA", "FRA", "DEU"]
# A seed whose generated state holds an in-app purchase made before 2023 (class availability:legacy) beside an
# ordinary one; the same seed builds the same classes in any app.
LEGACY_SEED, LEGACY_PRODUCT = 12, "com.example.gen12.item0"


def with_linkage(resource):
    """The names of the relationships of `resource` that carry linkage (`data`)."""
    return sorted(name for name, rel in resource.get("relationships", {}).items() if "data" in rel)


class AnswerShapeCases:
    def seed_shapes(self):
        """An in-app purchase priced from France with two localizations and an availability, one made before 2023,
        and a subscription in a group."""
        return self.seed({
            "inAppPurchases": [
                {"productId": "com.example.gems", "name": "Gems", "inAppPurchaseType": "CONSUMABLE",
                 "localizations": [{"locale": "en-US", "name": "Gems"}, {"locale": "fr-FR", "name": "Gemmes"}],
                 "prices": [{"territory": "USA", "usd": "0.99"}, {"territory": "FRA", "pricePoint": 10005}],
                 "baseTerritory": "FRA",
                 "availability": {"territories": TERRITORIES, "availableInNewTerritories": True}},
                {"productId": "com.example.old", "name": "Old", "inAppPurchaseType": "NON_CONSUMABLE",
                 "availableInAllTerritories": True, "prices": [{"territory": "USA", "usd": "1.99"}],
                 "localizations": [{"locale": "en-US", "name": "Old"}]}],
            "subscriptionGroups": [{"referenceName": "Pro", "subscriptions": [
                {"productId": "com.example.pro", "name": "Pro", "subscriptionPeriod": "ONE_MONTH",
                 "prices": [{"territory": "USA", "usd": "4.99"}]}]}]})

    def iap_list(self, query=""):
        doc = self.call("GET", "/v1/apps/%s/inAppPurchasesV2%s" % (self.app, query), expect=200)[1]
        return doc, {x["attributes"]["productId"]: x for x in doc["data"]}

    def assertAnswersKeepTheContract(self):
        validations = self.fake.control("GET", "validations")
        self.assertEqual(validations["responseFailures"], [])
        if self.openapi:  # every answer above was held against its documented response schema
            self.assertEqual(validations["mode"], "openapi")
            self.assertGreater(validations["responsesValidated"], 0)

    # -- linkage only for included relationships
    def test_linkage_only_for_included_relationships(self):
        ids = self.seed_shapes()
        gems_id, group = ids["inAppPurchases"]["com.example.gems"], ids["subscriptionGroups"]["Pro"]
        # without include=: every relationship, to-one and to-many, has its links and nothing else
        doc, by_product = self.iap_list()
        gems = by_product["com.example.gems"]
        self.assertEqual(sorted(gems["relationships"]), sorted([
            "versions", "inAppPurchaseLocalizations", "inAppPurchaseAvailability", "iapPriceSchedule",
            "appStoreReviewScreenshot", "content", "promotedPurchase", "images", "offerCodes"]))
        self.assertLinksOnly(gems, *gems["relationships"])
        self.assertEqual(gems["relationships"]["iapPriceSchedule"]["links"]["related"],
                         self.fake.base + "/v2/inAppPurchases/%s/iapPriceSchedule" % gems_id)
        self.assertNotIn("included", doc)
        # include= gives linkage (with its links) to exactly the relationships named, to-many cut at limit[...]
        doc, by_product = self.iap_list("?include=inAppPurchaseLocalizations,iapPriceSchedule"
                                        "&limit[inAppPurchaseLocalizations]=1")
        gems = by_product["com.example.gems"]
        self.assertEqual(with_linkage(gems), ["iapPriceSchedule", "inAppPurchaseLocalizations"])
        rels = gems["relationships"]
        self.assertEqual(rels["iapPriceSchedule"], {"data": {"type": "inAppPurchasePriceSchedules", "id": gems_id},
                                                    "links": self.relationship_links(gems, "iapPriceSchedule")})
        self.assertEqual((len(rels["inAppPurchaseLocalizations"]["data"]), rels["inAppPurchaseLocalizations"]["meta"],
                          rels["inAppPurchaseLocalizations"]["links"]),
                         (1, {"paging": {"total": 2, "limit": 1}},
                          self.relationship_links(gems, "inAppPurchaseLocalizations")))
        self.assertLinksOnly(gems, "versions", "inAppPurchaseAvailability", "appStoreReviewScreenshot", "images")
        # a stored to-one link (a subscription's group) is no exception
        path = "/v1/subscriptionGroups/%s/subscriptions" % group
        plain = self.call("GET", path, expect=200)[1]["data"][0]
        self.assertEqual(with_linkage(plain), [])
        self.assertLinksOnly(plain, "group", "prices")
        asked = self.call("GET", path + "?include=group", expect=200)[1]["data"][0]
        self.assertEqual((with_linkage(asked), asked["relationships"]["group"]["data"]),
                         (["group"], {"type": "subscriptionGroups", "id": group}))
        # a read of one resource, and the answers to creates and updates: links only
        availability = self.call("GET", "/v2/inAppPurchases/%s/inAppPurchaseAvailability" % gems_id,
                                 expect=200)[1]["data"]
        self.assertLinksOnly(availability, "availableTerritories")
        availability = self.call("GET", "/v2/inAppPurchases/%s/inAppPurchaseAvailability?include=availableTerritories"
                                 % gems_id, expect=200)[1]["data"]
        self.assertEqual([t["id"] for t in availability["relationships"]["availableTerritories"]["data"]], TERRITORIES)
        made = self.create_iap("com.example.new")["data"]
        self.assertEqual(with_linkage(made), [])
        self.assertLinksOnly(made, "versions", "inAppPurchaseAvailability", "iapPriceSchedule")
        changed = self.call("PATCH", "/v2/inAppPurchases/" + made["id"], {"data": {
            "type": "inAppPurchases", "id": made["id"], "attributes": {"name": "New name"}}}, 200)[1]["data"]
        self.assertEqual(with_linkage(changed), [])
        # the control API's state, the tests' oracle, still shows every stored linkage
        self.assertEqual(self.stored("subscriptions", plain["id"])["relationships"]["group"]["data"]["id"], group)
        self.assertAnswersKeepTheContract()

    def test_included_resources_carry_no_linkage(self):
        ids = self.seed_shapes()
        gems_id, group = ids["inAppPurchases"]["com.example.gems"], ids["subscriptionGroups"]["Pro"]
        # included prices: their stored price point and territory come as {} (as recorded), never as linkage
        doc = self.call("GET", "/v2/inAppPurchases/%s/iapPriceSchedule?include=manualPrices" % gems_id,
                        expect=200)[1]
        self.assertEqual(len(doc["data"]["relationships"]["manualPrices"]["data"]), 2)
        prices = [x for x in doc["included"] if x["type"] == "inAppPurchasePrices"]
        self.assertEqual(len(prices), 2)
        for price in prices:
            self.assertEqual(price["relationships"], {"inAppPurchasePricePoint": {}, "territory": {}})
        # an included schedule knows no base territory, an included availability no territories
        doc, _ = self.iap_list("?include=iapPriceSchedule,inAppPurchaseAvailability")
        schedule = next(x for x in doc["included"] if x["type"] == "inAppPurchasePriceSchedules" and x["id"] == gems_id)
        self.assertEqual(schedule["relationships"]["baseTerritory"], {})
        self.assertLinksOnly(schedule, "manualPrices", "automaticPrices")
        self.assertEqual(sorted(schedule["relationships"]), ["automaticPrices", "baseTerritory", "manualPrices"],
                         "only what Apple's document gives a price schedule")
        (availability,) = [x for x in doc["included"] if x["type"] == "inAppPurchaseAvailabilities"]
        self.assertLinksOnly(availability, "availableTerritories")
        # an included group: links only
        subs = self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?include=group" % group, expect=200)[1]
        (shown,) = subs["included"]
        self.assertEqual(shown["id"], group)
        self.assertLinksOnly(shown, "subscriptions", "versions", "subscriptionGroupLocalizations")
        # no resource of included carries linkage
        doc, _ = self.iap_list("?include=inAppPurchaseLocalizations,versions,iapPriceSchedule,"
                               "inAppPurchaseAvailability")
        self.assertEqual(sorted({x["type"] for x in doc["included"]}), [
            "inAppPurchaseAvailabilities", "inAppPurchaseLocalizations", "inAppPurchasePriceSchedules",
            "inAppPurchaseVersions"])
        self.assertEqual([(x["type"], with_linkage(x)) for x in doc["included"] if with_linkage(x)], [])
        self.assertAnswersKeepTheContract()

    def test_a_schedules_base_territory_is_known_only_with_include(self):
        ids = self.seed_shapes()
        gems_id = ids["inAppPurchases"]["com.example.gems"]
        path = "/v2/inAppPurchases/%s/iapPriceSchedule" % gems_id
        plain = self.call("GET", path, expect=200)[1]
        self.assertLinksOnly(plain["data"], "baseTerritory", "manualPrices", "automaticPrices")
        self.assertNotIn("included", plain)
        asked = self.call("GET", path + "?include=baseTerritory", expect=200)[1]
        self.assertEqual(asked["data"]["relationships"]["baseTerritory"]["data"], {"type": "territories", "id": "FRA"})
        self.assertEqual(with_linkage(asked["data"]), ["baseTerritory"])
        self.assertEqual([(x["type"], x["id"], x["attributes"]["currency"]) for x in asked["included"]],
                         [("territories", "FRA", "EUR")])
        # a schedule made through the API: its create answer doesn't say the base territory either
        made = self.create_iap("com.example.coins")["data"]
        point = self.call("GET", "/v2/inAppPurchases/%s/pricePoints?filter[territory]=DEU&limit=5" % made["id"],
                          expect=200)[1]["data"][3]["id"]
        created = self.call("POST", "/v1/inAppPurchasePriceSchedules", {"data": {
            "type": "inAppPurchasePriceSchedules", "relationships": {
                "inAppPurchase": self.linkage("inAppPurchases", made["id"]),
                "baseTerritory": self.linkage("territories", "DEU"),
                "manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": "${deu}"}]}}},
            "included": [{"type": "inAppPurchasePrices", "id": "${deu}", "attributes": {"startDate": None},
                          "relationships": {"inAppPurchasePricePoint": self.linkage("inAppPurchasePricePoints",
                                                                                    point)}}]}, 201)[1]["data"]
        self.assertLinksOnly(created, "baseTerritory")
        base = self.call("GET", "/v2/inAppPurchases/%s/iapPriceSchedule?include=baseTerritory" % made["id"],
                         expect=200)[1]["data"]["relationships"]["baseTerritory"]["data"]
        self.assertEqual(base, {"type": "territories", "id": "DEU"})
        self.assertAnswersKeepTheContract()

    # -- nulls
    def test_attributes_without_a_value_are_answered_null(self):
        self.assertIs(self.fake.control("GET", "settings")["explicitNulls"], True)  # the default
        ids = self.seed_shapes()
        gems_id = ids["inAppPurchases"]["com.example.gems"]
        made = self.create_iap("com.example.coins")["data"]
        self.assertIn("reviewNote", made["attributes"])
        self.assertIsNone(made["attributes"]["reviewNote"])
        _, by_product = self.iap_list()
        self.assertIsNone(by_product["com.example.gems"]["attributes"]["reviewNote"])
        schedule = "/v1/inAppPurchasePriceSchedules/%s/manualPrices" % gems_id
        prices = self.call("GET", schedule, expect=200)[1]["data"]
        self.assertEqual([(p["attributes"]["startDate"], p["attributes"]["endDate"]) for p in prices],
                         [(None, None)] * 2)  # in force, with no end
        # the other reading leaves them out
        self.fake.control("POST", "settings", {"explicitNulls": False})
        prices = self.call("GET", schedule, expect=200)[1]["data"]
        self.assertEqual([sorted({"startDate", "endDate"} & set(p["attributes"])) for p in prices], [[]] * 2)
        _, by_product = self.iap_list()
        self.assertNotIn("reviewNote", by_product["com.example.gems"]["attributes"])
        self.assertAnswersKeepTheContract()

    # -- in-app purchases made before 2023
    def test_a_purchase_made_before_2023_has_no_availability_relationship(self):
        ids = self.seed_shapes()
        old_id, gems_id = ids["inAppPurchases"]["com.example.old"], ids["inAppPurchases"]["com.example.gems"]
        for query in ("", "?include=inAppPurchaseAvailability"):
            doc, by_product = self.iap_list(query)
            old, gems = by_product["com.example.old"], by_product["com.example.gems"]
            self.assertIs(old["attributes"]["availableInAllTerritories"], True, query)
            self.assertNotIn("inAppPurchaseAvailability", old["relationships"], query)  # not even when included
            self.assertNotIn("availableInAllTerritories", gems["attributes"], query)
            self.assertIn("inAppPurchaseAvailability", gems["relationships"], query)
            self.assertLinksOnly(old, "iapPriceSchedule", "inAppPurchaseLocalizations")
        self.assertEqual(gems["relationships"]["inAppPurchaseAvailability"]["data"]["type"],
                         "inAppPurchaseAvailabilities")
        self.assertEqual([x["type"] for x in doc["included"]], ["inAppPurchaseAvailabilities"])  # the ordinary one's
        # its availability endpoint: no availability
        path = "/v2/inAppPurchases/%s/inAppPurchaseAvailability" % old_id
        self.assertEqual(self.call("GET", path, expect=200)[1],
                         {"data": None, "links": {"self": self.fake.base + path}})
        self.assertEqual(self.call("GET", path + "?include=availableTerritories", expect=200)[1]["data"], None)
        self.assertIs(self.stored("inAppPurchases", old_id)["attributes"]["availableInAllTerritories"], True)
        # its other reads are as any purchase's
        self.assertEqual(self.call("GET", "/v2/inAppPurchases/%s/iapPriceSchedule?include=baseTerritory" % old_id,
                                   expect=200)[1]["data"]["relationships"]["baseTerritory"]["data"]["id"], "USA")
        # an availability made for it makes it an ordinary purchase
        made = self.call("POST", "/v1/inAppPurchaseAvailabilities", {"data": {
            "type": "inAppPurchaseAvailabilities", "attributes": {"availableInNewTerritories": True},
            "relationships": {"inAppPurchase": self.linkage("inAppPurchases", old_id),
                              "availableTerritories": {"data": [{"type": "territories", "id": t}
                                                                for t in TERRITORIES]}}}}, 201)[1]["data"]
        _, by_product = self.iap_list("?include=inAppPurchaseAvailability")
        old = by_product["com.example.old"]
        self.assertNotIn("availableInAllTerritories", old["attributes"])
        self.assertEqual(old["relationships"]["inAppPurchaseAvailability"]["data"],
                         {"type": "inAppPurchaseAvailabilities", "id": made["id"]})
        self.assertEqual(self.call("GET", path, expect=200)[1]["data"]["id"], made["id"])
        _, by_product = self.iap_list()
        self.assertLinksOnly(by_product["com.example.old"], "inAppPurchaseAvailability")
        self.assertNotIn("availableInAllTerritories", self.stored("inAppPurchases", old_id)["attributes"])
        self.assertLinksOnly(by_product["com.example.gems"], "inAppPurchaseAvailability")
        self.assertEqual(self.call("GET", "/v2/inAppPurchases/%s/inAppPurchaseAvailability" % gems_id,
                                   expect=200)[1]["data"]["type"], "inAppPurchaseAvailabilities")
        self.assertAnswersKeepTheContract()

    def test_the_generator_builds_purchases_made_before_2023(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01"})
        app = self.fake.control("POST", "apps", {"name": "Legacy", "bundleId": "com.example.legacy"})["id"]
        used = self.fake.control("POST", "generate", {"appId": app, "seed": LEGACY_SEED})
        self.assertIn("availability:legacy", used["allClasses"])
        legacy = sorted(p for p, classes in used["classes"].items() if "availability:legacy" in classes)
        self.assertEqual(legacy, [LEGACY_PRODUCT])
        # only purchases never given an availability become ones made before 2023
        self.assertIn("availability:none", used["classes"][LEGACY_PRODUCT])
        doc = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=inAppPurchaseAvailability&limit=200" % app,
                        expect=200)[1]
        by_product = {x["attributes"]["productId"]: x for x in doc["data"]}
        self.assertGreater(len(by_product), len(legacy))  # an ordinary purchase beside it
        for product_id, purchase in by_product.items():
            if product_id in legacy:
                self.assertIs(purchase["attributes"]["availableInAllTerritories"], True)
                self.assertNotIn("inAppPurchaseAvailability", purchase["relationships"])
                path = "/v2/inAppPurchases/%s/inAppPurchaseAvailability" % purchase["id"]
                self.assertIsNone(self.call("GET", path, expect=200)[1]["data"])
            else:
                self.assertNotIn("availableInAllTerritories", purchase["attributes"])
                self.assertIn("data", purchase["relationships"]["inAppPurchaseAvailability"])
        # the same seed in another app builds the same classes
        other = self.fake.control("POST", "apps", {"name": "Again", "bundleId": "com.example.again"})["id"]
        self.assertEqual(self.fake.control("POST", "generate", {"appId": other, "seed": LEGACY_SEED})["classes"],
                         used["classes"])
        self.assertAnswersKeepTheContract()
