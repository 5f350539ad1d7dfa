#!/usr/bin/env python3
"""Counts the App Store Connect requests `iapkit asc plan` makes for a large catalog, against the project's fake.

Seeds the fake with every product of the catalog (as if an earlier push had created them), runs `asc plan`, and
attributes each request the fake logged: list pages of the app's collections (in-app purchases, subscription
groups, a group's subscriptions, territories) and requests about one product. Prints the figures and checks the
budget: at most 2.5 requests per product on average beyond the list pages. Then the plan's wall time with the fake
answering after 300 ms, 4 requests in flight against one (ratio, same run), and the requests of the example's
first push into an empty app (at most 120).

usage: bench-asc.py IAPKIT CATALOG.yaml
"""
import collections, os, re, shutil, subprocess, sys, time

import yaml

from fake_session import FakeSession

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LATENCY_PRODUCTS = int(os.environ.get("BENCH_ASC_LATENCY_PRODUCTS", "100"))
iapkit, catalog_path = sys.argv[1], sys.argv[2]
catalog = yaml.safe_load(open(catalog_path))
fake = FakeSession("iapkit-bench-asc-")
control, seed = fake.control, fake.seed


def plan(path, concurrency=4):
    """Runs `asc plan` on a freshly logged fake; returns (seconds, requests)."""
    fake.clear_requests()
    environment = fake.environment
    started = time.time()
    result = subprocess.run([iapkit, "asc", "plan", path, "--format", "json", "--concurrency", str(concurrency)],
                            env=environment, capture_output=True, text=True)
    elapsed = time.time() - started
    if result.returncode != 0:
        sys.exit("asc plan failed: " + result.stderr[-2000:])
    return elapsed, fake.requests()


try:
    # Counted, not throttled: App Store Connect's hourly budget (3600) is reported against the total below.
    control("POST", "settings", {"rateLimit": 1000000})
    products = seed(catalog)
    elapsed, requests = plan(catalog_path)

    # Wall time as App Store Connect answers (0.3-0.8 s a request): the first LATENCY_PRODUCTS products, every
    # request answered after 300 ms, read 4 at a time and one at a time.
    small = {"schemaVersion": 1, "app": catalog["app"], "products": catalog.get("products", [])[:LATENCY_PRODUCTS]}
    small_path = os.path.join(os.path.dirname(os.path.abspath(catalog_path)), "bench-asc-small.yaml")  # screenshots resolve beside it
    with open(small_path, "w") as handle:
        yaml.safe_dump(small, handle)
    control("POST", "reset")
    control("POST", "settings", {"rateLimit": 1000000})
    seed(small)
    control("POST", "settings", {"latencyMs": 300})
    parallel, _ = plan(small_path, 4)
    serial, _ = plan(small_path, 1)
    control("POST", "settings", {"latencyMs": 0})

    # The example's first push, into an empty app.
    control("POST", "reset")
    control("POST", "settings", {"rateLimit": 1000000})
    control("POST", "apps", {"name": "Fruit Stand", "bundleId": "com.example.fruitstand"})
    # A copy: push records its base beside the catalog, which belongs with the copy, not in the repository.
    examples = os.path.join(fake.work, "examples")
    shutil.copytree(os.path.join(HERE, "..", "examples"), examples, ignore=shutil.ignore_patterns(".iapkit"))
    example = os.path.join(examples, "catalog.yaml")
    environment = fake.environment
    pushed = subprocess.run([iapkit, "asc", "push", example, "--yes"], env=environment, capture_output=True, text=True)
    if pushed.returncode != 0:
        sys.exit("asc push of the example failed: " + pushed.stderr[-2000:])
    push_requests = len(fake.requests())
finally:
    fake.close()

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
budget = 2.5  # requests per product, on average, beyond the list pages (a full plan)
ok = per_product <= budget * products and not writes
print("App Store Connect's hourly budget is 3600 requests: this plan uses %.0f%% of it" % (100.0 * len(requests) / 3600))
print("asc plan requests: %s (%.2f per product beyond the list pages; target <= %.1f, no writes)"
      % ("PASS" if ok else "FAIL", per_product / products, budget))
speedup = serial / parallel
print("asc plan of %d products, every request answered after 300 ms: %.1f s read 4 at a time, %.1f s one at a time "
      "(%.2fx faster; target >= 2x): %s" % (LATENCY_PRODUCTS, parallel, serial, speedup, "PASS" if speedup >= 2 else "FAIL"))
print("asc push of the example into an empty app: %d requests (target <= 120): %s"
      % (push_requests, "PASS" if push_requests <= 120 else "FAIL"))
sys.exit(0 if ok and speedup >= 2 and push_requests <= 120 else 1)
