#!/usr/bin/env python3
"""Counts the App Store Connect requests `iapkit asc plan` makes for a large catalog, against the project's fake.

Seeds the fake with every product of the catalog (as if an earlier push had created them), runs `asc plan`, and
attributes each request the fake logged: list pages of the app's collections (in-app purchases, subscription
groups, a group's subscriptions, territories) and requests about one product. Prints the figures and checks the
budget: at most one request per list page plus a fixed number per product.

usage: bench-asc.py IAPKIT CATALOG.yaml
"""
import collections, json, os, re, subprocess, sys, tempfile, time, urllib.request

import yaml
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
iapkit, catalog_path = sys.argv[1], sys.argv[2]
catalog = yaml.safe_load(open(catalog_path))

work = tempfile.mkdtemp(prefix="iapkit-bench-asc-")
key = ec.generate_private_key(ec.SECP256R1())
key_path = os.path.join(work, "AuthKey.p8")
open(key_path, "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                             serialization.NoEncryption()))
public_path = os.path.join(work, "public.pem")
open(public_path, "wb").write(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                            serialization.PublicFormat.SubjectPublicKeyInfo))
fake = subprocess.Popen([sys.executable, os.path.join(HERE, "..", "Tests", "FakeAppStoreConnect", "fake_asc.py"),
                         "--port", "0", "--key-id", "BENCHKEY", "--issuer-id", "bench-issuer", "--public-key", public_path],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
url = fake.stdout.readline().split()[-1]


def control(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + "/__fake/" + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))


try:
    app = control("POST", "apps", {"name": "Bench", "bundleId": catalog["app"]["bundleId"]})["id"]
    # Counted, not throttled: App Store Connect's hourly budget (3600) is reported against the total below.
    control("POST", "settings", {"rateLimit": 1000000})
    kinds = {"consumable": "CONSUMABLE", "non-consumable": "NON_CONSUMABLE",
             "non-renewing-subscription": "NON_RENEWING_SUBSCRIPTION"}
    purchases = [{"productId": p["productId"], "name": p["referenceName"], "inAppPurchaseType": kinds[p["type"]],
                  "localizations": p["localizations"], "prices": [{"territory": "USA", "usd": str(p["price"])}]}
                 for p in catalog.get("products", [])]
    groups = [{"referenceName": g["referenceName"], "localizations": g.get("localizations", []),
               "subscriptions": [{"productId": s["productId"], "name": s["referenceName"], "subscriptionPeriod": "ONE_MONTH",
                                  "groupLevel": s["groupLevel"], "localizations": s["localizations"],
                                  "prices": [{"territory": "USA", "usd": str(s["price"])}]}
                                 for s in g["subscriptions"]]}
              for g in catalog.get("subscriptionGroups", [])]
    for start in range(0, len(purchases), 500):
        control("POST", "seed", {"appId": app, "inAppPurchases": purchases[start:start + 500]})
    control("POST", "seed", {"appId": app, "subscriptionGroups": groups})
    urllib.request.urlopen(urllib.request.Request(url + "/__fake/requests", method="DELETE"))

    environment = dict(os.environ, ASC_KEY_ID="BENCHKEY", ASC_ISSUER_ID="bench-issuer", ASC_PRIVATE_KEY_PATH=key_path,
                       ASC_API_URL=url)
    started = time.time()
    plan = subprocess.run([iapkit, "asc", "plan", catalog_path, "--format", "json"], env=environment,
                          capture_output=True, text=True)
    elapsed = time.time() - started
    if plan.returncode != 0:
        sys.exit("asc plan failed: " + plan.stderr[-2000:])
    requests = control("GET", "requests")
    requests = requests["requests"] if isinstance(requests, dict) else requests
finally:
    fake.stdin.close()
    fake.terminate()

products = len(purchases) + sum(len(g["subscriptions"]) for g in groups)
collections_ = re.compile(r"^/v1/(apps|territories)(/[^/]+/(inAppPurchasesV2|subscriptionGroups))?$|^/v1/subscriptionGroups/[^/]+/subscriptions$")
pages = [r for r in requests if collections_.match(r["path"])]
per_product = len(requests) - len(pages)
writes = [r for r in requests if r.get("write")]
print("asc plan, %d products: %d requests in %.1f s: %d list pages of the app's collections, %d about single products "
      "(%.2f per product), %d writes" % (products, len(requests), elapsed, len(pages), per_product, per_product / products,
                                          len(writes)))
by_operation = collections.Counter(r.get("operation") for r in requests)
for operation, count in by_operation.most_common():
    print("  %6d %s" % (count, operation))
budget = 16  # the subscription's reads: versions, localizations, plans and their territories, prices, 4 offer kinds, screenshot...
ok = per_product <= budget * products and not writes
print("App Store Connect's hourly budget is 3600 requests: this plan uses %.0f%% of it" % (100.0 * len(requests) / 3600))
print("asc plan requests: %s (budget: one per list page + at most %d per product, no writes)" % ("PASS" if ok else "FAIL", budget))
sys.exit(0 if ok else 1)
