"""API 4.5's multiseat purchases of subscriptions (`multiSeatStatus`, `marketSettings`): answered on every
subscription, changed only by PATCH (the create request doesn't take them), turned off by Family Sharing, `null` for a
subscription made before 4.5; the 4.5 overlay applied to Apple's document; the generator's multiseat classes; and the
web edit that changes them."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from cryptography.hazmat.primitives import serialization

from .cases_generator import MULTISEAT_CLASSES
from .harness import FAKE_DIR, ISS, KID
from .reference import OPENAPI

MARKETS = ["APPLE_SCHOOL", "APP_STORE", "APPLE_BUSINESS"]
RULE = ("multiSeatStatus can't be ENABLED for a subscription with Family Sharing turned on: turning on Family Sharing "
        "sets multiSeatStatus to DISABLED")


def multi_seat(resource):
    a = resource["attributes"]
    return a.get("multiSeatStatus", "absent"), a.get("marketSettings", "absent")


class MultiSeatCases:
    def subscriptions_of_app(self, app=None):
        subs = {}
        for group in self.call("GET", "/v1/apps/%s/subscriptionGroups" % (app or self.app), expect=200)[1]["data"]:
            for sub in self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?limit=200" % group["id"],
                                 expect=200)[1]["data"]:
                subs[sub["attributes"]["productId"]] = sub
        return subs

    def patch_attributes(self, sub_id, attributes, expect=200):
        return self.call("PATCH", "/v1/subscriptions/" + sub_id, {"data": {
            "type": "subscriptions", "id": sub_id, "attributes": attributes}}, expect)[1]

    def create_subscription(self, group_id, product_id, expect=201, **attributes):
        return self.call("POST", "/v1/subscriptions", {"data": {
            "type": "subscriptions", "attributes": dict({"productId": product_id, "name": product_id}, **attributes),
            "relationships": {"group": self.linkage("subscriptionGroups", group_id)}}}, expect)[1]

    def test_a_subscription_made_now_has_multiseat_on_in_the_app_store(self):
        group, sub = self.create_group_and_subscription()
        self.assertEqual(multi_seat(sub), ("ENABLED", ["APP_STORE"]))
        shared = self.create_subscription(group["id"], "com.example.family", familySharable=True)["data"]
        self.assertEqual(multi_seat(shared), ("DISABLED", ["APP_STORE"]))
        listed = self.subscriptions_of_app()
        self.assertEqual(multi_seat(listed["com.example.pro.monthly"]), ("ENABLED", ["APP_STORE"]))
        self.assertEqual(multi_seat(listed["com.example.family"]), ("DISABLED", ["APP_STORE"]))
        included = self.call("GET", "/v1/apps/%s/subscriptionGroups?include=subscriptions" % self.app,
                             expect=200)[1]["included"]
        self.assertEqual(sorted(multi_seat(x) for x in included), [("DISABLED", ["APP_STORE"]), ("ENABLED", ["APP_STORE"])])
        view = self.fake.control("POST", "managed", {"appId": self.app})["subscriptionGroups"]["Pro"]["subscriptions"]
        self.assertEqual((view["com.example.pro.monthly"]["multiSeatStatus"],
                          view["com.example.pro.monthly"]["marketSettings"]), ("ENABLED", ["APP_STORE"]))
        self.assertEqual(view["com.example.family"]["multiSeatStatus"], "DISABLED")
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_sparse_fieldsets_name_the_multiseat_attributes(self):
        group, sub = self.create_group_and_subscription()
        path = "/v1/subscriptionGroups/%s/subscriptions" % group["id"]
        doc = self.call("GET", path + "?fields[subscriptions]=marketSettings,multiSeatStatus,productId", expect=200)[1]
        # the fake accepts fields[...] and answers every attribute (README: Operations)
        self.assertEqual(multi_seat(doc["data"][0]), ("ENABLED", ["APP_STORE"]))
        doc = self.call("GET", path + "?fields[subscriptions]=multiSeatSettings", expect=400)[1]
        self.assertError(doc, "PARAMETER_ERROR.INVALID")

    def test_a_create_request_takes_neither_attribute(self):
        group, _ = self.create_group_and_subscription()
        for attributes in ({"multiSeatStatus": "ENABLED"}, {"marketSettings": ["APP_STORE"]},
                           {"multiSeatStatus": None, "marketSettings": None}):
            doc = self.create_subscription(group["id"], "com.example.new", 409, **attributes)
            for name in attributes:
                self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", "/data/attributes/" + name)
        self.assertEqual(len(self.state("subscriptions")), 1)

    def test_a_patch_changes_only_what_it_sends(self):
        _, sub = self.create_group_and_subscription()
        doc = self.patch_attributes(sub["id"], {"multiSeatStatus": "DISABLED"})
        self.assertEqual(multi_seat(doc["data"]), ("DISABLED", ["APP_STORE"]))
        doc = self.patch_attributes(sub["id"], {"marketSettings": ["APPLE_SCHOOL", "APPLE_BUSINESS"]})
        self.assertEqual(multi_seat(doc["data"]), ("DISABLED", ["APPLE_SCHOOL", "APPLE_BUSINESS"]))
        doc = self.patch_attributes(sub["id"], {"multiSeatStatus": "ENABLED", "marketSettings": MARKETS})
        self.assertEqual(multi_seat(doc["data"]), ("ENABLED", MARKETS))
        doc = self.patch_attributes(sub["id"], {"multiSeatStatus": None, "marketSettings": None, "name": "Renamed"})
        self.assertEqual(multi_seat(doc["data"]), ("ENABLED", MARKETS))  # null changes nothing
        doc = self.patch_attributes(sub["id"], {"marketSettings": ["APP_STORE", "APPLE_SCHOOL", "APP_STORE"]})
        self.assertEqual(multi_seat(doc["data"]), ("ENABLED", ["APP_STORE", "APPLE_SCHOOL"]))  # a repeat kept once
        doc = self.patch_attributes(sub["id"], {"marketSettings": []})  # no market: taken (our reading)
        self.assertEqual(multi_seat(doc["data"]), ("ENABLED", []))
        self.assertEqual(multi_seat(self.subscriptions_of_app()["com.example.pro.monthly"]), ("ENABLED", []))
        self.assertEqual(self.subscriptions_of_app()["com.example.pro.monthly"]["attributes"]["name"], "Renamed")

    def test_family_sharing_turns_multiseat_off_and_keeps_it_off(self):
        group, sub = self.create_group_and_subscription()
        self.patch_attributes(sub["id"], {"marketSettings": MARKETS})
        doc = self.patch_attributes(sub["id"], {"familySharable": True})
        self.assertEqual(multi_seat(doc["data"]), ("DISABLED", MARKETS))
        doc = self.patch_attributes(sub["id"], {"multiSeatStatus": "ENABLED"}, 409)
        self.assertEqual([(e["status"], e["code"], e["detail"], e["source"]["pointer"]) for e in doc["errors"]],
                         [("409", "ENTITY_ERROR.ATTRIBUTE.INVALID", RULE, "/data/attributes/multiSeatStatus")])
        self.patch_attributes(sub["id"], {"multiSeatStatus": "DISABLED", "marketSettings": ["APP_STORE"]})
        # in one request with turning Family Sharing on: refused, and nothing changes
        other = self.create_subscription(group["id"], "com.example.other")["data"]
        doc = self.patch_attributes(other["id"], {"familySharable": True, "multiSeatStatus": "ENABLED",
                                                  "name": "Other renamed"}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/multiSeatStatus")
        stored = self.stored("subscriptions", other["id"])["attributes"]
        self.assertEqual((stored["familySharable"], stored["name"], stored["multiSeatStatus"]),
                         (False, "com.example.other", "ENABLED"))
        doc = self.patch_attributes(other["id"], {"familySharable": True, "multiSeatStatus": "DISABLED"})
        self.assertEqual(multi_seat(doc["data"]), ("DISABLED", ["APP_STORE"]))
        # a pre-4.5 subscription (null) turned family-sharable is DISABLED too
        ids = self.seed({"subscriptionGroups": [{"referenceName": "Old", "subscriptions": [
            {"productId": "com.example.old", "name": "Old", "multiSeatStatus": None, "marketSettings": None}]}]})
        doc = self.patch_attributes(ids["subscriptions"]["com.example.old"], {"familySharable": True})
        self.assertEqual(multi_seat(doc["data"]), ("DISABLED", None))

    def test_without_the_family_sharing_rule_both_are_held(self):
        group, sub = self.create_group_and_subscription()
        shared = self.create_subscription(group["id"], "com.example.family", familySharable=True)["data"]
        self.fake.control("POST", "settings", {"multiSeatFamilyRule": False})
        doc = self.patch_attributes(shared["id"], {"multiSeatStatus": "ENABLED"})
        self.assertEqual(multi_seat(doc["data"]), ("ENABLED", ["APP_STORE"]))
        doc = self.patch_attributes(sub["id"], {"familySharable": True})
        self.assertEqual(multi_seat(doc["data"]), ("ENABLED", ["APP_STORE"]))
        listed = self.subscriptions_of_app()
        self.assertEqual([(listed[p]["attributes"]["familySharable"], multi_seat(listed[p])[0])
                          for p in ("com.example.family", "com.example.pro.monthly")], [(True, "ENABLED")] * 2)
        self.seed({"subscriptionGroups": [{"referenceName": "Old", "subscriptions": [
            {"productId": "com.example.old", "name": "Old", "familySharable": True, "multiSeatStatus": "ENABLED"}]}]})
        self.assertEqual(multi_seat(self.subscriptions_of_app()["com.example.old"])[0], "ENABLED")
        # the rule back on: the same PATCH is refused again
        self.fake.control("POST", "settings", {"multiSeatFamilyRule": True})
        doc = self.patch_attributes(shared["id"], {"multiSeatStatus": "ENABLED"}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/multiSeatStatus")

    def test_values_outside_the_enums_are_refused(self):
        _, sub = self.create_group_and_subscription()
        for attributes in ({"marketSettings": ["APP_STORE", "MAC_APP_STORE"]}, {"marketSettings": "APP_STORE"},
                           {"multiSeatStatus": "SOMETIMES"}):
            doc = self.patch_attributes(sub["id"], attributes, 409)
            name = list(attributes)[0]
            self.assertTrue(all(e["code"] == "ENTITY_ERROR.ATTRIBUTE.INVALID"
                                and e["source"]["pointer"].startswith("/data/attributes/" + name)
                                for e in doc["errors"]), doc)
        self.assertEqual(multi_seat(self.stored("subscriptions", sub["id"])), ("ENABLED", ["APP_STORE"]))

    def test_a_subscription_made_before_4_5_answers_null(self):
        ids = self.seed({"subscriptionGroups": [{"referenceName": "Pro", "subscriptions": [
            {"productId": "com.example.old", "name": "Old", "multiSeatStatus": None, "marketSettings": None},
            {"productId": "com.example.oldshared", "name": "Old shared", "familySharable": True,
             "multiSeatStatus": None, "marketSettings": None},
            {"productId": "com.example.set", "name": "Set", "multiSeatStatus": "DISABLED",
             "marketSettings": ["APPLE_BUSINESS"]},
            {"productId": "com.example.plain", "name": "Plain"}]}]})
        listed = self.subscriptions_of_app()
        self.assertEqual(multi_seat(listed["com.example.old"]), (None, None))
        self.assertEqual(multi_seat(listed["com.example.set"]), ("DISABLED", ["APPLE_BUSINESS"]))
        self.assertEqual(multi_seat(listed["com.example.plain"]), ("ENABLED", ["APP_STORE"]))
        self.fake.control("POST", "settings", {"explicitNulls": False})
        self.assertEqual(multi_seat(self.subscriptions_of_app()["com.example.old"]), ("absent", "absent"))
        # the managed view: what a catalog naming none pushes, a subscription made now
        view = self.fake.control("POST", "managed", {"appId": self.app})["subscriptionGroups"]["Pro"]["subscriptions"]
        self.assertEqual([(view[p]["multiSeatStatus"], view[p]["marketSettings"]) for p in
                          ("com.example.old", "com.example.oldshared", "com.example.set")],
                         [("ENABLED", ["APP_STORE"]), ("DISABLED", ["APP_STORE"]), ("DISABLED", ["APPLE_BUSINESS"])])
        # a PATCH sets them
        doc = self.patch_attributes(ids["subscriptions"]["com.example.old"], {"marketSettings": ["APPLE_SCHOOL"]})
        self.assertEqual(multi_seat(doc["data"]), ("absent", ["APPLE_SCHOOL"]))
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])
        for bad in ({"multiSeatStatus": "ON"}, {"marketSettings": ["MAC_APP_STORE"]},
                    {"familySharable": True, "multiSeatStatus": "ENABLED"}):
            status = self.fake.request("POST", "/__fake/seed", {"appId": self.app, "subscriptionGroups": [
                {"referenceName": "Bad", "subscriptions": [dict({"productId": "com.example.bad", "name": "Bad"},
                                                                **bad)]}]}, auth=False)[0]
            self.assertEqual(status, 400, bad)

    def test_the_contract_is_4_5(self):
        validations = self.fake.control("GET", "validations")
        if self.openapi:
            self.assertEqual((validations["mode"], validations["documentVersion"], validations["overlays"]),
                             ("openapi", "4.4.1", ["app-store-connect-4.5-subscriptions.json"]))
        else:
            self.assertEqual((validations["mode"], validations["overlays"]), ("builtin", []))

    def test_generated_multiseat_states_match_their_classes(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01", "explicitNulls": True})
        seen = set()
        for seed in range(12):
            app = self.fake.control("POST", "apps", {"name": "M%d" % seed, "bundleId": "com.example.m%d" % seed})["id"]
            used = self.fake.control("POST", "generate", {"appId": app, "seed": seed})
            again = self.fake.control("POST", "apps", {"name": "N%d" % seed, "bundleId": "com.example.n%d" % seed})["id"]
            self.assertEqual(self.fake.control("POST", "generate", {"appId": again, "seed": seed})["classes"],
                             used["classes"])
            subs, repeat = self.subscriptions_of_app(app), self.subscriptions_of_app(again)
            for pid, sub in subs.items():
                classes = [c for c in used["classes"][pid] if c.startswith("subscription:multiseat")]
                seen.update(classes)
                status, markets = multi_seat(sub)
                self.assertEqual((status, markets), multi_seat(repeat[pid]), (seed, pid))  # the same seed, the same
                kinds = [c for c in classes if c != "subscription:multiseat-some-markets"]
                self.assertEqual(len(kinds), 1, (seed, pid, classes))
                expected = {"subscription:multiseat-on": "ENABLED", "subscription:multiseat-off": "DISABLED",
                            "subscription:multiseat-family-shared": "DISABLED",
                            "subscription:multiseat-unset": None}[kinds[0]]
                self.assertEqual(status, expected, (seed, pid, classes))
                family = sub["attributes"]["familySharable"]
                if kinds[0] in ("subscription:multiseat-family-shared", "subscription:multiseat-off"):
                    self.assertEqual(family, kinds[0].endswith("family-shared"), (seed, pid, classes))
                if kinds[0] == "subscription:multiseat-unset":
                    self.assertIsNone(markets)
                    continue
                some = "subscription:multiseat-some-markets" in classes
                self.assertEqual(some, markets not in (["APP_STORE"], MARKETS), (seed, pid, markets))
                self.assertTrue(markets and set(markets) <= set(MARKETS), (seed, pid, markets))
        self.assertEqual(sorted(set(MULTISEAT_CLASSES) - seen), [])
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def web_edit(self, edits):
        """Runs web_edit.py as the Swift tests run it: the fake's address and a private key file in the environment."""
        with tempfile.TemporaryDirectory() as folder:
            key = os.path.join(folder, "AuthKey.p8")
            with open(key, "wb") as f:
                f.write(self.fake.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                    serialization.NoEncryption()))
            env = dict(os.environ, ASC_API_URL=self.fake.base, ASC_KEY_ID=KID, ASC_ISSUER_ID=ISS,
                       ASC_PRIVATE_KEY_PATH=key)
            return subprocess.run([sys.executable, os.path.join(FAKE_DIR, "web_edit.py"), self.app, json.dumps(edits)],
                                  env=env, capture_output=True, text=True, timeout=60)

    def test_web_edit_of_multiseat(self):
        group, sub = self.create_group_and_subscription()
        self.create_subscription(group["id"], "com.example.family", familySharable=True)
        run = self.web_edit([{"multiSeat": "com.example.pro.monthly", "status": "DISABLED",
                              "markets": "APPLE_SCHOOL,APPLE_BUSINESS"}])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(multi_seat(self.stored("subscriptions", sub["id"])), ("DISABLED", ["APPLE_SCHOOL", "APPLE_BUSINESS"]))
        run = self.web_edit([{"multiSeat": "com.example.pro.monthly", "status": "ENABLED"},
                             {"multiSeat": "com.example.pro.monthly", "markets": ["APP_STORE"]}])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(multi_seat(self.stored("subscriptions", sub["id"])), ("ENABLED", ["APP_STORE"]))
        run = self.web_edit([{"multiSeat": "com.example.pro.monthly", "markets": ""}])
        self.assertEqual((run.returncode, multi_seat(self.stored("subscriptions", sub["id"]))), (0, ("ENABLED", [])))
        run = self.web_edit([{"multiSeat": "com.example.family", "status": "ENABLED"}])
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("409", run.stderr)
        self.assertNotEqual(self.web_edit([{"multiSeat": "com.example.none", "status": "ENABLED"}]).returncode, 0)


@unittest.skipUnless(OPENAPI, "Apple's OpenAPI document not found (set IAPKIT_REFERENCE)")
class OverlayMatchesBuiltinTables(unittest.TestCase):
    """The 4.5 overlay beside Apple's document is applied to it, and the builtin contract carries what it adds."""

    def test_the_overlay_makes_the_document_4_5_and_the_builtin_tables_agree(self):
        sys.path.insert(0, FAKE_DIR)
        from fakeasc.contract import builtin_tables
        from fakeasc.contract.openapi import load_document, overlays_beside
        self.assertEqual([os.path.basename(p) for p in overlays_beside(OPENAPI)],
                         ["app-store-connect-4.5-subscriptions.json"])
        plain, none = load_document(OPENAPI, [])
        doc, applied = load_document(OPENAPI)
        self.assertEqual((none, applied), ([], ["app-store-connect-4.5-subscriptions.json"]))
        schemas, old = doc["components"]["schemas"], plain["components"]["schemas"]
        resource = schemas["Subscription"]["properties"]["attributes"]["properties"]
        update = schemas["SubscriptionUpdateRequest"]["properties"]["data"]["properties"]["attributes"]["properties"]
        create = schemas["SubscriptionCreateRequest"]["properties"]["data"]["properties"]["attributes"]["properties"]
        new = {"multiSeatStatus", "marketSettings"}
        self.assertEqual(set(resource) - set(old["Subscription"]["properties"]["attributes"]["properties"]), new)
        self.assertEqual(resource["marketSettings"]["items"]["enum"], MARKETS)
        self.assertTrue(new <= set(update) and not new & set(create))
        self.assertIs(update["multiSeatStatus"]["nullable"], True)
        # the builtin contract: the same resource, update and create attributes
        self.assertEqual(set(builtin_tables.SUBSCRIPTION_ATTRIBUTES), set(resource))
        self.assertEqual(set(builtin_tables.BODIES["subscriptions_updateInstance"]["attrs"]), set(update))
        self.assertEqual(set(builtin_tables.BODIES["subscriptions_createInstance"]["attrs"]), set(create))
        self.assertEqual(builtin_tables.SUBSCRIPTION_ATTRIBUTES["multiSeatStatus"], resource["multiSeatStatus"]["enum"])
        # fields[subscriptions] lists them, on every operation that takes it, as the builtin table does
        values = set()
        for item in doc["paths"].values():
            for op in item.values():
                for p in op.get("parameters", []) if isinstance(op, dict) else []:
                    if p.get("name") == "fields[subscriptions]":
                        values.add(tuple(p["schema"]["items"]["enum"]))
        self.assertEqual(len(values), 1)
        self.assertEqual(sorted(values.pop()), sorted(builtin_tables.FIELDS["subscriptions"]))
