"""`include=` with `limit[...]`, and empty to-one relationships (`"data": null`, or 404 with `emptyToOne`)."""

import json
import os
import sys
import unittest

from .harness import FAKE_DIR
from .reference import OPENAPI

LOCALES = json.load(open(os.path.join(FAKE_DIR, "locales.json"), encoding="utf-8"))["locales"][:12]


def linkages(resource, name):
    return [x["id"] for x in resource["relationships"][name]["data"]]


class IncludeCases:
    def seed_products(self):
        """Two in-app purchases: `full` with 12 localizations, availability in 12 territories and a price; `bare`
        with nothing. A group with two subscriptions: `rich` with prices in 12 territories, `plain` without."""
        territories = ["USA", "FRA", "DEU", "JPN", "GBR", "CAN", "AUS", "ITA", "ESP", "BRA", "MEX", "KOR"]
        ids = self.seed({
            "inAppPurchases": [
                {"productId": "com.example.full", "name": "Full", "inAppPurchaseType": "NON_CONSUMABLE",
                 "localizations": [{"locale": l, "name": "Full %d" % i} for i, l in enumerate(LOCALES)],
                 "prices": [{"territory": "USA", "usd": "0.99"}],
                 "availability": {"territories": territories, "availableInNewTerritories": True}},
                {"productId": "com.example.bare", "name": "Bare", "inAppPurchaseType": "CONSUMABLE"}],
            "subscriptionGroups": [{"referenceName": "Pro", "localizations": [{"locale": "en-US", "name": "Pro"}],
                                    "subscriptions": [
                {"productId": "com.example.rich", "name": "Rich", "subscriptionPeriod": "ONE_MONTH",
                 "localizations": [{"locale": "en-US", "name": "Rich"}],
                 "prices": [{"territory": t, "pricePoint": 10005} for t in territories]},
                {"productId": "com.example.plain", "name": "Plain", "subscriptionPeriod": "ONE_YEAR"}]}]})
        return ids, territories

    def test_iap_list_includes_with_limits(self):
        ids, territories = self.seed_products()
        full, bare = ids["inAppPurchases"]["com.example.full"], ids["inAppPurchases"]["com.example.bare"]
        doc = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=versions,inAppPurchaseAvailability,"
                               "iapPriceSchedule,appStoreReviewScreenshot,inAppPurchaseLocalizations" % self.app,
                        expect=200)[1]
        by_id = {x["id"]: x for x in doc["data"]}
        rels = by_id[full]["relationships"]
        # to-many: linkages capped at the default 10, with paging telling the list was cut
        self.assertEqual(len(rels["inAppPurchaseLocalizations"]["data"]), 10)
        self.assertEqual(rels["inAppPurchaseLocalizations"]["meta"]["paging"], {"total": 12, "limit": 10})
        self.assertEqual(rels["versions"]["meta"]["paging"], {"total": 1, "limit": 10})
        # to-one: a linkage, or null when empty
        self.assertEqual(rels["inAppPurchaseAvailability"]["data"]["type"], "inAppPurchaseAvailabilities")
        self.assertEqual(rels["iapPriceSchedule"]["data"], {"type": "inAppPurchasePriceSchedules", "id": full})
        self.assertIsNone(rels["appStoreReviewScreenshot"]["data"])
        empty = by_id[bare]["relationships"]
        for name in ("inAppPurchaseAvailability", "iapPriceSchedule", "appStoreReviewScreenshot"):
            self.assertIsNone(empty[name]["data"], name)
        self.assertEqual(empty["versions"], {"data": [], "meta": {"paging": {"total": 0, "limit": 10}},
                                             "links": self.relationship_links(by_id[bare], "versions")})
        # what the request didn't include: links only
        self.assertLinksOnly(by_id[full], "images", "offerCodes", "promotedPurchase", "content")
        # every linked resource appears once in included, and nothing else
        keys = [(x["type"], x["id"]) for x in doc["included"]]
        self.assertEqual(len(keys), len(set(keys)))
        linked = {(l["type"], l["id"]) for x in doc["data"] for r in x["relationships"].values()
                  if r.get("data") for l in (r["data"] if isinstance(r["data"], list) else [r["data"]])}
        self.assertEqual(set(keys), linked)
        self.assertEqual(sum(1 for t, _ in keys if t == "inAppPurchaseLocalizations"), 10)
        # limit[...] up to 50 shows them all; above it, or on a relationship the document gives none, is refused
        doc = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=inAppPurchaseLocalizations"
                               "&limit[inAppPurchaseLocalizations]=50" % self.app, expect=200)[1]
        self.assertEqual(len(linkages(next(x for x in doc["data"] if x["id"] == full), "inAppPurchaseLocalizations")), 12)
        _, doc, _ = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=versions&limit[versions]=51" % self.app,
                              expect=400)
        self.assertEqual((doc["errors"][0]["code"], doc["errors"][0]["source"]["parameter"]),
                         ("PARAMETER_ERROR.INVALID", "limit[versions]"))
        _, doc, _ = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?limit[appStoreReviewScreenshot]=1" % self.app,
                              expect=400)
        self.assertEqual(doc["errors"][0]["code"], "PARAMETER_ERROR.ILLEGAL")
        self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=pricePoints" % self.app, expect=400)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_subscription_and_group_list_includes(self):
        ids, territories = self.seed_products()
        rich = ids["subscriptions"]["com.example.rich"]
        group = ids["subscriptionGroups"]["Pro"]
        includes = ("versions,planAvailabilities,introductoryOffers,promotionalOffers,offerCodes,winBackOffers,prices,"
                    "appStoreReviewScreenshot,group,subscriptionLocalizations")
        doc = self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?include=%s&limit[prices]=5" % (group, includes),
                        expect=200)[1]
        by_id = {x["id"]: x for x in doc["data"]}
        rels = by_id[rich]["relationships"]
        self.assertEqual(len(rels["prices"]["data"]), 5)
        self.assertEqual(rels["prices"]["meta"]["paging"], {"total": 12, "limit": 5})
        for name in ("introductoryOffers", "promotionalOffers", "offerCodes", "winBackOffers", "planAvailabilities"):
            self.assertEqual(rels[name], {"data": [], "meta": {"paging": {"total": 0, "limit": 10}},
                                          "links": self.relationship_links(by_id[rich], name)}, name)
        self.assertLinksOnly(by_id[rich], "images", "promotedPurchase", "subscriptionAvailability")
        self.assertIsNone(rels["appStoreReviewScreenshot"]["data"])
        self.assertEqual(len(rels["subscriptionLocalizations"]["data"]), 1)
        included = [(x["type"], x["id"]) for x in doc["included"]]
        self.assertEqual(included.count(("subscriptionGroups", group)), 1)  # both subscriptions link it: once
        self.assertEqual(sum(1 for t, _ in included if t == "subscriptionPrices"), 5)
        self.assertEqual(sorted(i for t, i in included if t == "subscriptionPrices"), sorted(linkages(by_id[rich], "prices")))
        doc = self.call("GET", "/v1/apps/%s/subscriptionGroups?include=subscriptions,versions,"
                               "subscriptionGroupLocalizations&limit[subscriptions]=1" % self.app, expect=200)[1]
        rels = doc["data"][0]["relationships"]
        self.assertEqual((len(rels["subscriptions"]["data"]), rels["subscriptions"]["meta"]["paging"]["total"]), (1, 2))
        self.assertEqual(len(rels["subscriptionGroupLocalizations"]["data"]), 1)
        self.assertEqual({x["type"] for x in doc["included"]},
                         {"subscriptions", "subscriptionGroupVersions", "subscriptionGroupLocalizations"})
        self.call("GET", "/v1/apps/%s/subscriptionGroups?include=prices" % self.app, expect=400)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_version_lists_include_localizations(self):
        ids, _ = self.seed_products()
        full = ids["inAppPurchases"]["com.example.full"]
        doc = self.call("GET", "/v2/inAppPurchases/%s/versions?include=localizations&limit[localizations]=2" % full,
                        expect=200)[1]
        rels = doc["data"][0]["relationships"]["localizations"]
        self.assertEqual((len(rels["data"]), rels["meta"]["paging"]), (2, {"total": 12, "limit": 2}))
        self.assertEqual([x["id"] for x in doc["included"]], [l["id"] for l in rels["data"]])
        rich = ids["subscriptions"]["com.example.rich"]
        doc = self.call("GET", "/v1/subscriptions/%s/versions?include=localizations,subscription" % rich, expect=200)[1]
        self.assertEqual(sorted(x["type"] for x in doc["included"]), ["subscriptionLocalizations", "subscriptions"])
        group = ids["subscriptionGroups"]["Pro"]
        doc = self.call("GET", "/v1/subscriptionGroups/%s/versions?include=localizations" % group, expect=200)[1]
        self.assertEqual([x["attributes"]["name"] for x in doc["included"]], ["Pro"])
        self.call("GET", "/v1/subscriptionGroups/%s/versions?include=localizations&limit[localizations]=0" % group,
                  expect=400)

    def test_availability_includes_territories(self):
        ids, territories = self.seed_products()
        full = ids["inAppPurchases"]["com.example.full"]
        doc = self.call("GET", "/v2/inAppPurchases/%s/inAppPurchaseAvailability?include=availableTerritories"
                               "&limit[availableTerritories]=3" % full, expect=200)[1]
        rels = doc["data"]["relationships"]["availableTerritories"]
        self.assertEqual([x["id"] for x in rels["data"]], territories[:3])
        self.assertEqual(rels["meta"]["paging"], {"total": 12, "limit": 3})
        self.assertEqual([x["id"] for x in doc["included"]], territories[:3])
        rich = ids["subscriptions"]["com.example.rich"]
        self.call("POST", "/v1/subscriptionPlanAvailabilities", {"data": {
            "type": "subscriptionPlanAvailabilities", "attributes": {"planType": "UPFRONT",
                                                                     "availableInNewTerritories": False},
            "relationships": {"subscription": self.linkage("subscriptions", rich),
                              "availableTerritories": {"data": [{"type": "territories", "id": t}
                                                                for t in territories]}}}}, 201)
        doc = self.call("GET", "/v1/subscriptions/%s/planAvailabilities?include=availableTerritories" % rich,
                        expect=200)[1]
        self.assertEqual(doc["data"][0]["relationships"]["availableTerritories"]["meta"]["paging"],
                         {"total": 12, "limit": 10})
        self.assertEqual(len(doc["included"]), 10)
        doc = self.call("GET", "/v2/inAppPurchases/%s/iapPriceSchedule?include=manualPrices,baseTerritory,"
                               "automaticPrices" % full, expect=200)[1]
        rels = doc["data"]["relationships"]
        self.assertEqual((len(rels["manualPrices"]["data"]), rels["baseTerritory"]["data"]["id"]), (1, "USA"))
        self.assertEqual(rels["automaticPrices"], {"data": [], "meta": {"paging": {"total": 0, "limit": 10}},
                                                   "links": self.relationship_links(doc["data"], "automaticPrices")})

    def test_empty_to_one_reads(self):
        iap = self.create_iap()["data"]
        _, sub = self.create_group_and_subscription()
        reads = [("/v2/inAppPurchases/%s/appStoreReviewScreenshot" % iap["id"], "inAppPurchaseV2"),
                 ("/v2/inAppPurchases/%s/inAppPurchaseAvailability" % iap["id"], "availableTerritories"),
                 ("/v2/inAppPurchases/%s/iapPriceSchedule" % iap["id"], "baseTerritory"),
                 ("/v1/subscriptions/%s/appStoreReviewScreenshot" % sub["id"], "subscription")]
        paths = [path for path, _ in reads]
        for path, include in reads:
            doc = self.call("GET", "%s?include=%s" % (path, include), expect=200)[1]
            self.assertEqual(doc, {"data": None, "links": {"self": self.fake.base + path}}, path)
        validations = self.fake.control("GET", "validations")
        self.assertEqual(validations["responseFailures"], [])
        self.assertGreaterEqual(validations["nullToOneAllowed"], 4)
        self.assertEqual(self.fake.control("POST", "settings", {"emptyToOne": "404"})["emptyToOne"], "404")
        for path in paths:
            _, doc, _ = self.call("GET", path, expect=404)
            self.assertEqual(doc["errors"][0]["code"], "NOT_FOUND")
        status, _, _ = self.fake.request("POST", "/__fake/settings", {"emptyToOne": "none"}, auth=False)
        self.assertEqual(status, 400)


@unittest.skipUnless(OPENAPI, "Apple's OpenAPI document not found (set IAPKIT_REFERENCE)")
class BuiltinTablesMatchDocument(unittest.TestCase):
    """Without the document the builtin contract must refuse and accept the same include, limit[...] and filter
    parameters as the document does, for every read the fake serves (the app list aside: the fake serves no app
    relationships)."""

    def test_reads_take_the_documented_parameters(self):
        sys.path.insert(0, FAKE_DIR)
        from fakeasc.contract import builtin_tables
        from fakeasc.service import ROUTES
        with open(OPENAPI, encoding="utf-8") as f:
            doc = json.load(f)
        params = doc["components"].get("parameters", {})
        ops = {op["operationId"]: op for item in doc["paths"].values() for op in item.values()
               if isinstance(op, dict) and "operationId" in op}
        for method, _, op_id, _ in ROUTES:
            if method != "GET" or op_id == "apps_getCollection":
                continue
            names = [params[p["$ref"].split("/")[-1]]["name"] if "$ref" in p else p["name"]
                     for p in ops[op_id].get("parameters", [])]
            include = next((p for p in ops[op_id].get("parameters", []) if p.get("name") == "include"), None)
            documented_includes = include["schema"]["items"]["enum"] if include else []
            filters, includes = builtin_tables.QUERIES[op_id]
            self.assertEqual(sorted(includes), sorted(documented_includes), op_id)
            self.assertEqual(sorted(builtin_tables.INCLUDE_LIMITS.get(op_id, [])),
                             sorted(n[6:-1] for n in names if n.startswith("limit[")), op_id)
            self.assertEqual(sorted(filters), sorted(n[7:-1] for n in names if n.startswith("filter[")), op_id)
