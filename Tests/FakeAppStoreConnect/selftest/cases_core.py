"""Authentication, request refusals, paging and injected faults."""

import time

from cryptography.hazmat.primitives.asymmetric import ec

from .harness import make_jwt


class CoreCases:
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
        # A token made now: the shared one may be older than a minute by this test's turn on a busy machine.
        self.call("GET", "/v1/apps", token=make_jwt(self.fake.key), expect=200)

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
