"""Service behaviour around the operations: the per-key rate limit over a rolling window, injected faults beside
it, the latency switch, and the request log."""

import threading
import time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from .harness import make_jwt


def remaining(headers):
    return int(headers["X-Rate-Limit"].split("user-hour-rem:")[1].rstrip(";"))


class ServiceCases:
    def test_rate_limit_over_a_rolling_window(self):
        self.fake.control("POST", "settings", {"rateLimit": 3, "rateLimitWindowSeconds": 2})
        started = time.time()
        for left in (2, 1, 0):
            _, _, headers = self.call("GET", "/v1/apps", expect=200)
            self.assertEqual(headers["X-Rate-Limit"], "user-hour-lim:3;user-hour-rem:%d;" % left)
        status, doc, headers = self.call("GET", "/v1/territories")
        self.assertEqual((status, doc["errors"][0]["code"]), (429, "RATE_LIMIT_EXCEEDED"))
        self.assertEqual(headers["X-Rate-Limit"], "user-hour-lim:3;user-hour-rem:0;")
        self.assertIn(int(headers["Retry-After"]), (1, 2))
        self.call("POST", "/v2/inAppPurchases", {"data": {}}, 429)  # refused before anything else, writes too
        self.assertEqual(self.fake.control("GET", "settings")["rateRemaining"], 0)
        log = self.fake.control("GET", "requests")
        self.assertEqual([r["status"] for r in log["requests"]], [200, 200, 200, 429, 429])
        self.assertEqual(log["byOperation"]["territories_getCollection"], 1)
        time.sleep(max(0.0, started + 2.1 - time.time()))  # the first requests leave the window
        _, _, headers = self.call("GET", "/v1/apps", expect=200)
        self.assertLess(remaining(headers), 3)
        # the settings of before keep working: rateLimitRemaining sets what is left now
        self.fake.control("POST", "settings", {"rateLimit": 100, "rateLimitRemaining": 1})
        self.assertEqual(remaining(self.call("GET", "/v1/apps", expect=200)[2]), 0)
        self.call("GET", "/v1/apps", expect=429)
        self.fake.control("POST", "settings", {"rateLimit": 100})  # a new limit starts full
        self.assertEqual(remaining(self.call("GET", "/v1/apps", expect=200)[2]), 99)

    def test_rate_limit_is_per_api_key(self):
        other = ec.generate_private_key(ec.SECP256R1())
        pem = other.public_key().public_bytes(serialization.Encoding.PEM,
                                              serialization.PublicFormat.SubjectPublicKeyInfo).decode()
        self.assertEqual(self.fake.control("POST", "keys", {"keyId": "SECONDKEY1", "publicKey": pem}),
                         {"keyId": "SECONDKEY1"})
        second = make_jwt(other, kid="SECONDKEY1")
        self.fake.control("POST", "settings", {"rateLimit": 2})
        self.call("GET", "/v1/apps", expect=200)
        self.call("GET", "/v1/apps", expect=200)
        self.call("GET", "/v1/apps", expect=429)
        _, _, headers = self.call("GET", "/v1/apps", token=second, expect=200)
        self.assertEqual(headers["X-Rate-Limit"], "user-hour-lim:2;user-hour-rem:1;")
        log = self.fake.control("GET", "requests")["requests"]
        self.assertEqual([r["keyId"] for r in log], ["TESTKEY123"] * 3 + ["SECONDKEY1"])
        self.assertEqual(self.call("GET", "/v1/apps", token=make_jwt(other, kid="UNKNOWN"))[0], 401)
        self.fake.control("POST", "reset")  # a reset forgets added keys
        self.assertEqual(self.fake.control("GET", "keys"), {"keys": ["TESTKEY123"]})

    def test_injected_429_beside_the_budget(self):
        self.fake.control("POST", "settings", {"rateLimit": 10})
        self.fake.control("POST", "faults", [{"method": "GET", "pathPattern": "^/v1/apps$", "status": 429,
                                              "retryAfter": 7, "count": 1}])
        status, doc, headers = self.call("GET", "/v1/apps")
        self.assertEqual((status, doc["errors"][0]["code"], headers["Retry-After"]), (429, "RATE_LIMIT_EXCEEDED", "7"))
        self.assertEqual(headers["X-Rate-Limit"], "user-hour-lim:10;user-hour-rem:9;")  # it counted
        _, _, headers = self.call("GET", "/v1/apps", expect=200)
        self.assertEqual(remaining(headers), 8)
        log = self.fake.control("GET", "requests")["requests"]
        self.assertEqual([(r["status"], r["fault"]) for r in log], [(429, "before"), (200, None)])

    def test_latency_overlaps_concurrent_requests(self):
        self.fake.control("POST", "settings", {"latencyMs": 400})
        started = time.time()
        self.fake.control("GET", "settings")  # control requests are not delayed
        self.assertLess(time.time() - started, 0.35)
        started = time.time()
        self.call("GET", "/v1/apps", expect=200)
        one = time.time() - started
        self.assertGreaterEqual(one, 0.4)
        for burst, most in ((4, 4 * 0.4 * 0.6), (16, 1.2)):  # 16 at once: more than a small listen backlog takes
            results = []

            def get():
                t0 = time.time()
                status = self.fake.request("GET", "/v1/territories?limit=5")[0]
                results.append((status, time.time() - t0))
            threads = [threading.Thread(target=get) for _ in range(burst)]
            started = time.time()
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            together = time.time() - started
            self.assertEqual(sorted(s for s, _ in results), [200] * burst)
            self.assertTrue(all(d >= 0.4 for _, d in results), results)
            self.assertLess(together, most, "%d concurrent requests took %.2f s: they did not overlap" % (burst, together))
        self.fake.control("POST", "settings", {"latencyMs": 0})
        started = time.time()
        self.call("GET", "/v1/apps", expect=200)
        self.assertLess(time.time() - started, 0.35)

    def test_request_log_fields(self):
        ids = self.seed({"inAppPurchases": [{"productId": "com.example.a", "name": "A", "inAppPurchaseType": "CONSUMABLE"}]})
        iap = ids["inAppPurchases"]["com.example.a"]
        self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=versions,appStoreReviewScreenshot"
                         "&limit[versions]=5" % self.app, expect=200)
        self.call("GET", "/v2/inAppPurchases/%s/versions" % iap, expect=200)
        self.call("GET", "/v2/inAppPurchases/%s/pricePoints?filter[territory]=USA" % iap, expect=200)
        self.call("GET", "/v1/nothing/here", expect=404)
        doc = self.fake.control("GET", "requests")
        first = doc["requests"][0]
        self.assertEqual({k: first[k] for k in ("method", "path", "status", "write", "operation", "fault", "include",
                                                "id", "keyId")},
                         {"method": "GET", "path": "/v1/apps/%s/inAppPurchasesV2" % self.app, "status": 200,
                          "write": False, "operation": "apps_inAppPurchasesV2_getToManyRelated", "fault": None,
                          "include": ["versions", "appStoreReviewScreenshot"], "id": self.app, "keyId": "TESTKEY123"})
        self.assertEqual(first["query"]["limit[versions]"], "5")
        self.assertEqual([r["id"] for r in doc["requests"][1:3]], [iap, iap])  # requests per product
        self.assertEqual(doc["requests"][3]["operation"], None)
        self.assertEqual(doc["byOperation"], {"apps_inAppPurchasesV2_getToManyRelated": 1,
                                              "inAppPurchasesV2_versions_getToManyRelated": 1,
                                              "inAppPurchasesV2_pricePoints_getToManyRelated": 1, "unrouted": 1})
        self.fake.request("DELETE", "/__fake/requests", auth=False)
        self.assertEqual(self.fake.control("GET", "requests"), {"requests": [], "byOperation": {}, "dropped": 0})
