"""The project's fake App Store Connect, started for a benchmark with a new API key: its control API, its request
log, and the catalog seeded into it as if an earlier push had created it."""
import json, os, shutil, subprocess, sys, tempfile, urllib.request

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FakeSession:
    def __init__(self, prefix):
        self.work = tempfile.mkdtemp(prefix=prefix)
        key = ec.generate_private_key(ec.SECP256R1())
        self.key_path = os.path.join(self.work, "AuthKey.p8")
        open(self.key_path, "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption()))
        public_path = os.path.join(self.work, "public.pem")
        open(public_path, "wb").write(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                                    serialization.PublicFormat.SubjectPublicKeyInfo))
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "..", "Tests", "FakeAppStoreConnect", "fake_asc.py"), "--port", "0",
             "--key-id", "BENCHKEY", "--issuer-id", "bench-issuer", "--public-key", public_path],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().split()[-1]
        self.environment = dict(os.environ, ASC_KEY_ID="BENCHKEY", ASC_ISSUER_ID="bench-issuer",
                                ASC_PRIVATE_KEY_PATH=self.key_path, ASC_API_URL=self.url)

    def control(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + "/__fake/" + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(request))

    def requests(self):
        logged = self.control("GET", "requests")
        return logged["requests"] if isinstance(logged, dict) else logged

    def clear_requests(self):
        urllib.request.urlopen(urllib.request.Request(self.url + "/__fake/requests", method="DELETE"))

    def seed(self, catalog):
        """Creates the catalog's products in a new app; returns how many."""
        app = self.control("POST", "apps", {"name": "Bench", "bundleId": catalog["app"]["bundleId"]})["id"]
        kinds = {"consumable": "CONSUMABLE", "non-consumable": "NON_CONSUMABLE",
                 "non-renewing-subscription": "NON_RENEWING_SUBSCRIPTION"}
        purchases = [{"productId": p["productId"], "name": p["referenceName"], "inAppPurchaseType": kinds[p["type"]],
                      "localizations": p["localizations"], "prices": [{"territory": "USA", "usd": str(p["price"])}]}
                     for p in catalog.get("products", [])]
        groups = [{"referenceName": g["referenceName"], "localizations": g.get("localizations", []),
                   "subscriptions": [{"productId": s["productId"], "name": s["referenceName"],
                                      "subscriptionPeriod": "ONE_MONTH", "groupLevel": s["groupLevel"],
                                      "localizations": s["localizations"],
                                      "prices": [{"territory": "USA", "usd": str(s["price"])}]}
                                     for s in g["subscriptions"]]}
                  for g in catalog.get("subscriptionGroups", [])]
        for start in range(0, len(purchases), 500):
            self.control("POST", "seed", {"appId": app, "inAppPurchases": purchases[start:start + 500]})
        if groups:
            self.control("POST", "seed", {"appId": app, "subscriptionGroups": groups})
        return len(purchases) + sum(len(g["subscriptions"]) for g in groups)

    def close(self):
        self.process.stdin.close()
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.work, ignore_errors=True)
