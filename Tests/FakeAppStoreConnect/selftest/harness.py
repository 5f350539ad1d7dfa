"""What the self-test cases share: a signed token, a fake started as the Swift tests start it (a subprocess with a
pipe as stdin), and a base class with request helpers. Each case module is a mixin run in both contract modes."""

import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

FAKE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
        cmd = [sys.executable, os.path.join(FAKE_DIR, "fake_asc.py"), "--port", "0", "--key-id", KID, "--issuer-id", ISS,
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


class FakeTestCase:
    """Starts one fake per test class (in the mode of `openapi`), resets it and seeds an app before each test."""
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

    def seed(self, doc):
        return self.fake.control("POST", "seed", dict(doc, appId=self.app))

    def state(self, type_):
        return self.fake.control("GET", "state")["resources"].get(type_, [])

    def stored(self, type_, id_):
        """One resource as the control API's state shows it, with every stored linkage (an API answer carries
        linkage only for the relationships its request names in `include=`)."""
        return next(r for r in self.state(type_) if r["id"] == id_)

    @staticmethod
    def relationship_links(resource, name):
        """The `links` App Store Connect gives a relationship of `resource`: its linkage and related endpoints."""
        own = resource["links"]["self"]
        return {"self": own + "/relationships/" + name, "related": own + "/" + name}

    def assertLinksOnly(self, resource, *names):
        """Each named relationship is answered as App Store Connect answers one the request didn't include: its
        `links` only, no linkage."""
        for name in names:
            self.assertEqual(resource["relationships"][name], {"links": self.relationship_links(resource, name)},
                             name)

    @staticmethod
    def linkage(type_, id_):
        return {"data": {"type": type_, "id": id_}}

    def price_item(self, local_id, point, territory=None, **attributes):
        """An inline subscriptionPrices item for PATCH /v1/subscriptions."""
        rels = {"subscriptionPricePoint": self.linkage("subscriptionPricePoints", point)}
        if territory:
            rels["territory"] = self.linkage("territories", territory)
        item = {"type": "subscriptionPrices", "id": local_id, "relationships": rels}
        if attributes:
            item["attributes"] = attributes
        return item

    def patch_subscription(self, sub_id, included, attributes=None, expect=200, relationships=None):
        """PATCH /v1/subscriptions/{id} whose relationships list every included item (unless given)."""
        if relationships is None:
            relationships = {}
            for item in included:
                name = {"subscriptionPrices": "prices", "subscriptionIntroductoryOffers": "introductoryOffers",
                        "subscriptionPromotionalOffers": "promotionalOffers"}[item["type"]]
                relationships.setdefault(name, {"data": []})["data"].append({"type": item["type"], "id": item["id"]})
        data = {"type": "subscriptions", "id": sub_id}
        if attributes:
            data["attributes"] = attributes
        if relationships:
            data["relationships"] = relationships
        body = {"data": data}
        if included:
            body["included"] = included
        return self.call("PATCH", "/v1/subscriptions/" + sub_id, body, expect)[1]
