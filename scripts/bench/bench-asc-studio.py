#!/usr/bin/env python3
"""A studio's catalog against the project's fake App Store Connect, at several sizes: products priced in USD and by
hand in 15 territories, each with a price change scheduled for a later date (scripts/bench/generate-studio.py).

For each size (BENCH_ASC_SIZES, default 50,100,250,500 products): the first push into an empty app, then the plan
of the unchanged catalog. Each prints what it said it would send beside what it sent beyond the list pages (the
estimate the hour's budget is checked against: reads for the plan, reads and writes for the push; target within a
tenth), and the plan's requests per product beyond the list pages (target <= 2.5). The plan's and the push's wall
time are printed for every size (the fake answers at once: iapkit's own time and the fake's, not App Store
Connect's 0.3-0.8 s a request).

usage: bench-asc-studio.py IAPKIT WORK_DIR
"""
import os, re, subprocess, sys, time

from fake_session import FakeSession

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = re.compile(r"^/v1/(apps|territories)(/[^/]+/(inAppPurchasesV2|subscriptionGroups))?$"
                   r"|^/v1/subscriptionGroups/[^/]+/subscriptions$")
PER_PRODUCT = 2.5
iapkit, work = sys.argv[1], sys.argv[2]
sizes = [int(n) for n in os.environ.get("BENCH_ASC_SIZES", "50,100,250,500").split(",") if n]


def estimate(pattern, text):
    match = re.search(pattern, text)
    return int(match.group(1)) if match else 0


def within(estimated, sent):
    return abs(estimated - sent) * 10 <= max(sent, 10)


def verdict(ok):
    return "PASS" if ok else "FAIL"


failed = False
rows = []
for size in sizes:
    catalog = os.path.join(work, "studio%d" % size, "catalog.yaml")
    os.makedirs(os.path.dirname(catalog), exist_ok=True)
    base = os.path.join(os.path.dirname(catalog), ".iapkit")
    subprocess.run(["rm", "-rf", base], check=True)
    subprocess.run([sys.executable, os.path.join(HERE, "generate-studio.py"), str(size), catalog], check=True)
    fake = FakeSession("iapkit-bench-studio-")
    try:
        fake.control("POST", "settings", {"rateLimit": 1000000})  # counted, not throttled
        fake.control("POST", "apps", {"name": "Studio", "bundleId": "com.example.studio"})
        started = time.time()
        push = subprocess.run([iapkit, "asc", "push", catalog, "--yes"], env=fake.environment, capture_output=True, text=True)
        push_seconds = time.time() - started
        if push.returncode != 0:
            sys.exit("asc push of %d products failed: %s%s" % (size, push.stdout[-2000:], push.stderr[-2000:]))
        sent = fake.requests()
        push_sent = len([r for r in sent if not LISTS.match(r["path"])])
        push_estimate = (estimate(r"in detail: about (\d+) requests?", push.stderr)
                         + estimate(r"Push would send about (\d+) requests?", push.stdout))
        fake.clear_requests()
        started = time.time()
        plan = subprocess.run([iapkit, "asc", "plan", catalog], env=fake.environment, capture_output=True, text=True)
        plan_seconds = time.time() - started
        if plan.returncode != 0:
            sys.exit("asc plan of %d products failed: %s%s" % (size, plan.stdout[-2000:], plan.stderr[-2000:]))
        sent = fake.requests()
        pages = [r for r in sent if LISTS.match(r["path"])]
        plan_sent = len(sent) - len(pages)
        plan_estimate = estimate(r"in detail: about (\d+) requests?", plan.stderr)
        unchanged = "Push would send no request" in plan.stdout
    finally:
        fake.close()
    per_product = plan_sent / size
    ok_push, ok_plan = within(push_estimate, push_sent), within(plan_estimate, plan_sent)
    ok_requests = per_product <= PER_PRODUCT and unchanged
    failed |= not (ok_push and ok_plan and ok_requests)
    print("%d products: push %.1f s, about %d estimated, %d sent (%s); plan %.1f s, %d list pages + %d, about %d "
          "estimated (%s), %.2f per product%s" % (
              size, push_seconds, push_estimate, push_sent, verdict(ok_push), plan_seconds, len(pages), plan_sent,
              plan_estimate, verdict(ok_plan), per_product, "" if unchanged else ", NOT UNCHANGED"))
    rows.append((size, per_product, ok_requests))
for size, per_product, ok in rows:
    print("  %-42s %8.2f  (target <= %.1f)  %s" % ("asc plan, studio of %d: requests / product" % size, per_product,
                                                     PER_PRODUCT, verdict(ok)))
sys.exit(1 if failed else 0)
