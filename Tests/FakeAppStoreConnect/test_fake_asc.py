#!/usr/bin/env python3
"""Self-test of the fake App Store Connect: it refuses what App Store Connect refuses and accepts the flows iapkit
uses. Runs the fake with its built-in contract, and again against Apple's OpenAPI document when the reference
folder has it (IAPKIT_REFERENCE, default: the `shared/reference` folder beside the repository).

usage: python3 Tests/FakeAppStoreConnect/test_fake_asc.py
"""

import base64
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
REFERENCE = os.environ.get("IAPKIT_REFERENCE") or os.path.join(os.path.dirname(REPO), "shared", "reference")
OPENAPI = os.path.join(REFERENCE, "app-store-connect-openapi.json")
KID, ISS = "TESTKEY123", "57246542-96fe-1a63-e053-0824d011072a"


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def make_jwt(key, kid=KID, iss=ISS, aud="appstoreconnect-v1", iat=None, exp=None, alg="ES256"):
    now = int(time.time())
    iat = now if iat is None else iat
    exp = iat + 1200 if exp is None else exp
    head = b64url(json.dumps({"alg": alg, "kid": kid, "typ": "JWT"}).encode())
    body = b64url(json.dumps({"iss": iss, "iat": iat, "exp": exp, "aud": aud}).encode())
    der = key.sign((head + "." + body).encode(), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    return head + "." + body + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


class Fake:
    def __init__(self, openapi=None, page_size=None):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.tmp = tempfile.TemporaryDirectory()
        pem = os.path.join(self.tmp.name, "key.pem")
        with open(pem, "wb") as f:
            f.write(self.key.public_key().public_bytes(serialization.Encoding.PEM,
                                                       serialization.PublicFormat.SubjectPublicKeyInfo))
        cmd = [sys.executable, os.path.join(HERE, "fake_asc.py"), "--port", "0", "--key-id", KID, "--issuer-id", ISS,
               "--public-key", pem]
        if openapi:
            cmd += ["--openapi", openapi]
        if page_size:
            cmd += ["--page-size", str(page_size)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        line = self.proc.stdout.readline().decode().strip()
        if not line.startswith("listening "):
            raise RuntimeError("the fake did not start: %r" % line)
        self.base = line.split(" ", 1)[1]
        self.token = make_jwt(self.key)

    def stop(self):
        self.proc.stdin.close()  # EOF on stdin stops the fake
        self.proc.wait(10)
        self.proc.stdout.close()
        self.tmp.cleanup()

    def request(self, method, path, body=None, token=None, raw=None, headers=None, auth=True):
        url = path if path.startswith("http") else self.base + path
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(url, data=data, method=method)
        if auth:
            req.add_header("Authorization", "Bearer " + (token or self.token))
        if data is not None and raw is None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                text = resp.read()
                return resp.status, json.loads(text) if text and resp.headers.get("Content-Type") == "application/json" \
                    else None, resp.headers
        except urllib.error.HTTPError as e:
            text = e.read()
            return e.code, json.loads(text) if text and e.headers.get("Content-Type") == "application/json" else None, \
                e.headers

    def control(self, method, name, body=None):
        return self.request(method, "/__fake/" + name, body, auth=False)[1]


class FakeContractTests:
    """The behaviour both modes share; subclasses start the fake in one mode."""
    openapi = None
    fake = None

    @classmethod
    def setUpClass(cls):
        cls.fake = Fake(cls.openapi)

    @classmethod
    def tearDownClass(cls):
        if cls.fake:
            cls.fake.stop()

    def setUp(self):
        self.fake.control("POST", "reset")
        self.app = self.fake.control("POST", "apps", {"name": "Demo", "bundleId": "com.example.demo"})["id"]

    # -- helpers
    def call(self, method, path, body=None, expect=None, **kw):
        status, doc, headers = self.fake.request(method, path, body, **kw)
        if expect is not None:
            self.assertEqual(status, expect, "%s %s -> %s %s" % (method, path, status, json.dumps(doc)[:800]))
        return status, doc, headers

    def create_iap(self, product_id="com.example.gems", kind="CONSUMABLE", expect=201, **attrs):
        a = {"productId": product_id, "name": attrs.pop("name", product_id), "inAppPurchaseType": kind, **attrs}
        return self.call("POST", "/v2/inAppPurchases", {"data": {
            "type": "inAppPurchases", "attributes": a,
            "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}}, expect)[1]

    def create_group_and_subscription(self, product_id="com.example.pro.monthly", period="ONE_MONTH"):
        group = self.call("POST", "/v1/subscriptionGroups", {"data": {
            "type": "subscriptionGroups", "attributes": {"referenceName": "Pro"},
            "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}}, 201)[1]["data"]
        sub = self.call("POST", "/v1/subscriptions", {"data": {
            "type": "subscriptions",
            "attributes": {"productId": product_id, "name": "Pro Monthly", "subscriptionPeriod": period},
            "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": group["id"]}}}}}, 201)[1]["data"]
        return group, sub

    def point(self, owner_path, territory="USA", price="0.99"):
        doc = self.call("GET", "%s/pricePoints?filter[territory]=%s&limit=8000" % (owner_path, territory),
                        expect=200)[1]
        return next(p["id"] for p in doc["data"] if p["attributes"]["customerPrice"] == price)

    def assertError(self, doc, code, pointer=None):
        codes = [(e["code"], e.get("source", {}).get("pointer")) for e in doc["errors"]]
        self.assertTrue(any(c == code and (pointer is None or p == pointer) for c, p in codes),
                        "expected %s at %s, got %s" % (code, pointer, codes))

    # -- authentication
    def test_refuses_bad_tokens(self):
        other = ec.generate_private_key(ec.SECP256R1())
        now = int(time.time())
        for why, token in [("signature", make_jwt(other)), ("aud", make_jwt(self.fake.key, aud="appstoreconnect-v2")),
                           ("expired", make_jwt(self.fake.key, iat=now - 1300, exp=now - 100)),
                           ("lifetime", make_jwt(self.fake.key, exp=now + 3600)),
                           ("kid", make_jwt(self.fake.key, kid="OTHER")),
                           ("iss", make_jwt(self.fake.key, iss="someone-else")),
                           ("future iat", make_jwt(self.fake.key, iat=now + 300, exp=now + 600))]:
            status, doc, headers = self.call("GET", "/v1/apps", token=token)
            self.assertEqual(status, 401, why)
            self.assertEqual(doc["errors"][0]["code"], "NOT_AUTHORIZED", why)
            self.assertEqual(doc["errors"][0]["status"], "401", why)
        self.assertEqual(self.call("GET", "/v1/apps", auth=False)[0], 401)
        self.call("GET", "/v1/apps", expect=200)

    def test_token_age_setting_forces_renewal(self):
        old = make_jwt(self.fake.key, iat=int(time.time()) - 120)
        self.call("GET", "/v1/apps", token=old, expect=200)
        self.fake.control("POST", "settings", {"maxTokenAgeSeconds": 60})
        self.assertEqual(self.call("GET", "/v1/apps", token=old)[0], 401)
        self.call("GET", "/v1/apps", expect=200)

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
        eq = self.call("GET", "/v1/subscriptionPricePoints/%s/equalizations?limit=200" % point, expect=200)[1]
        self.assertEqual(eq["meta"]["paging"]["total"], 174)
        self.assertNotIn("USA", [p["relationships"]["territory"]["data"]["id"] for p in eq["data"]])

    # -- refusals of request bodies
    def test_refuses_invalid_bodies(self):
        base = {"type": "inAppPurchases", "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}
        _, doc, _ = self.call("POST", "/v2/inAppPurchases", {"data": dict(base, attributes={
            "productId": "a.b", "inAppPurchaseType": "CONSUMABLE"})}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "/data/attributes/name")
        _, doc, _ = self.call("POST", "/v2/inAppPurchases", {"data": dict(base, attributes={
            "productId": "a.b", "name": "A", "inAppPurchaseType": "AUTO_RENEWABLE"})}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/inAppPurchaseType")
        _, doc, _ = self.call("POST", "/v2/inAppPurchases", {"data": dict(base, attributes={
            "productId": "a.b", "name": "A", "inAppPurchaseType": "CONSUMABLE", "price": "0.99"})}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", "/data/attributes/price")
        _, doc, _ = self.call("POST", "/v2/inAppPurchases", {"data": {
            "type": "inAppPurchases", "attributes": {"productId": "a.b", "name": "A", "inAppPurchaseType": "CONSUMABLE"}}},
            409)
        self.assertError(doc, "ENTITY_ERROR.RELATIONSHIP.REQUIRED")
        status, _, _ = self.call("POST", "/v2/inAppPurchases", raw=b"{not json",
                                 headers={"Content-Type": "application/json"})
        self.assertEqual(status, 422)
        status, _, _ = self.call("POST", "/v2/inAppPurchases", raw=b"{}", headers={"Content-Type": "text/plain"})
        self.assertEqual(status, 415)
        self.assertEqual(self.fake.control("GET", "state")["resources"].get("inAppPurchases", []), [])
        self.assertGreaterEqual(self.fake.control("GET", "validations")["requestBodiesRefused"], 4)

    def test_refuses_duplicate_and_retired_product_ids(self):
        self.create_iap("com.example.gems")
        _, doc, _ = self.call("POST", "/v2/inAppPurchases", {"data": {
            "type": "inAppPurchases", "attributes": {"productId": "com.example.gems", "name": "Other",
                                                     "inAppPurchaseType": "CONSUMABLE"},
            "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "/data/attributes/productId")
        group = self.call("POST", "/v1/subscriptionGroups", {"data": {
            "type": "subscriptionGroups", "attributes": {"referenceName": "G"},
            "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}}, 201)[1]["data"]
        _, doc, _ = self.call("POST", "/v1/subscriptions", {"data": {
            "type": "subscriptions", "attributes": {"productId": "com.example.gems", "name": "Sub"},
            "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": group["id"]}}}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE")
        self.fake.control("POST", "seed", {"appId": self.app, "deletedProductIds": ["com.example.old"]})
        doc = self.create_iap("com.example.old", expect=409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "/data/attributes/productId")
        self.create_iap("bad id with spaces", expect=409)

    def test_refuses_changes_to_immutable_fields(self):
        iap = self.create_iap("com.example.unlock", "NON_CONSUMABLE", familySharable=True)["data"]
        for attrs, pointer in [({"productId": "com.example.other"}, "/data/attributes/productId"),
                               ({"inAppPurchaseType": "CONSUMABLE"}, "/data/attributes/inAppPurchaseType")]:
            _, doc, _ = self.call("PATCH", "/v2/inAppPurchases/" + iap["id"], {"data": {
                "type": "inAppPurchases", "id": iap["id"], "attributes": attrs}}, 409)
            self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", pointer)
        _, doc, _ = self.call("PATCH", "/v2/inAppPurchases/" + iap["id"], {"data": {
            "type": "inAppPurchases", "id": iap["id"], "attributes": {"familySharable": False}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/familySharable")
        self.call("PATCH", "/v2/inAppPurchases/" + iap["id"], {"data": {
            "type": "inAppPurchases", "id": iap["id"], "attributes": {"name": "Renamed"}}}, 200)
        _, sub = self.create_group_and_subscription()
        self.call("PATCH", "/v1/subscriptions/" + sub["id"], {"data": {
            "type": "subscriptions", "id": sub["id"], "attributes": {"subscriptionPeriod": "ONE_YEAR"}}}, 409)
        self.call("PATCH", "/v1/subscriptions/" + sub["id"], {"data": {
            "type": "subscriptions", "id": sub["id"], "attributes": {"subscriptionPeriod": "ONE_MONTH"}}}, 200)

    def test_refuses_bad_relationships(self):
        self.call("POST", "/v2/inAppPurchases", {"data": {
            "type": "inAppPurchases", "attributes": {"productId": "a.b", "name": "A", "inAppPurchaseType": "CONSUMABLE"},
            "relationships": {"app": {"data": {"type": "apps", "id": "999"}}}}}, 404)
        _, doc, _ = self.call("POST", "/v2/inAppPurchases", {"data": {
            "type": "inAppPurchases", "attributes": {"productId": "a.b", "name": "A", "inAppPurchaseType": "CONSUMABLE"},
            "relationships": {"app": {"data": {"type": "subscriptionGroups", "id": self.app}}}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.RELATIONSHIP.INVALID")
        iap = self.create_iap()["data"]
        self.call("POST", "/v1/inAppPurchaseAvailabilities", {"data": {
            "type": "inAppPurchaseAvailabilities", "attributes": {"availableInNewTerritories": False},
            "relationships": {"inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap["id"]}},
                              "availableTerritories": {"data": [{"type": "territories", "id": "XYZ"}]}}}}, 404)

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
        self.call("POST", "/v1/subscriptionPrices", {"data": {
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

    # -- reads: pagination and parameters
    def test_pagination(self):
        for i in range(7):
            self.create_iap("com.example.p%d" % i)
        self.fake.control("POST", "settings", {"pageSize": 3})
        url, seen, pages = "/v1/apps/%s/inAppPurchasesV2" % self.app, [], 0
        while url:
            doc = self.call("GET", url, expect=200)[1]
            self.assertEqual(doc["meta"]["paging"], {"total": 7, "limit": 3})
            seen += [x["attributes"]["productId"] for x in doc["data"]]
            url = doc["links"].get("next")
            pages += 1
            if url:
                self.assertTrue(url.startswith(self.fake.base + "/v1/apps/"))
        self.assertEqual((pages, len(set(seen))), (3, 7))
        doc = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?limit=200" % self.app, expect=200)[1]
        self.assertEqual((len(doc["data"]), "next" in doc["links"]), (7, False))
        _, doc, _ = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?limit=201" % self.app, expect=400)
        self.assertEqual(doc["errors"][0]["source"]["parameter"], "limit")
        self.call("GET", "/v1/apps/%s/inAppPurchasesV2?color=blue" % self.app, expect=400)
        self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=nothing" % self.app, expect=400)
        self.call("GET", "/v1/territories?limit=200", expect=200)

    # -- faults
    def test_faults(self):
        self.fake.control("POST", "faults", [{"method": "POST", "pathPattern": "^/v2/inAppPurchases$", "status": 429,
                                              "retryAfter": 2, "when": "before"}])
        status, doc, headers = self.call("POST", "/v2/inAppPurchases", {"data": {
            "type": "inAppPurchases", "attributes": {"productId": "x.y", "name": "X", "inAppPurchaseType": "CONSUMABLE"},
            "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}})
        self.assertEqual((status, headers["Retry-After"]), (429, "2"))
        self.assertEqual(self.fake.control("GET", "state")["resources"].get("inAppPurchases", []), [])
        self.create_iap("x.y")
        self.fake.control("POST", "faults", {"rules": [{"method": "POST", "pathPattern": "inAppPurchases$",
                                                        "status": 500, "when": "after", "afterNthMatch": 2}]})
        self.create_iap("x.z")
        status, _, _ = self.call("POST", "/v2/inAppPurchases", {"data": {
            "type": "inAppPurchases", "attributes": {"productId": "x.w", "name": "W", "inAppPurchaseType": "CONSUMABLE"},
            "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}})
        self.assertEqual(status, 500)
        ids = [r["attributes"]["productId"] for r in self.fake.control("GET", "state")["resources"]["inAppPurchases"]]
        self.assertIn("x.w", ids)  # the change was applied before the failure
        self.create_iap("x.w", expect=409)  # a blind retry now conflicts; a resumable client must re-read
        log = self.fake.control("GET", "requests")["requests"]
        self.assertEqual([r["status"] for r in log if r["write"]][-4:], [201, 201, 500, 409])
        self.assertEqual(sum(1 for r in log if r.get("fault")), 2)


class BuiltinContractTests(FakeContractTests, unittest.TestCase):
    openapi = None


@unittest.skipUnless(os.path.exists(OPENAPI), "Apple's OpenAPI document not found at %s (set IAPKIT_REFERENCE)" % OPENAPI)
class OpenAPIContractTests(FakeContractTests, unittest.TestCase):
    openapi = OPENAPI


if __name__ == "__main__":
    if not os.path.exists(OPENAPI):
        print("test_fake_asc: skipping the OpenAPI mode: %s does not exist (set IAPKIT_REFERENCE)" % OPENAPI)
    unittest.main(verbosity=1)
