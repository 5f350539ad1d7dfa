#!/usr/bin/env python3
"""Plans in proportion to the change, against the project's fake holding a large catalog (10,000 products).

1. A pull request's plan: the catalog committed to a git repository, 10 products changed in the working tree,
   `asc plan --changed-since HEAD` with every request answered after 300 ms. Target: no more than the list pages
   plus 40 requests, under a minute.
2. A full plan's printed estimate against the requests it sends beyond the list pages. Target: within 10%.
3. A full plan with 1,000 requests left in the hour. Target: exit 75, having sent only list pages.

usage: bench-asc-scale.py IAPKIT CATALOG.yaml
"""
import os, re, shutil, subprocess, sys, time

import yaml

from fake_session import FakeSession

iapkit, catalog_path = sys.argv[1], sys.argv[2]
catalog = yaml.safe_load(open(catalog_path))
fake = FakeSession("iapkit-bench-scale-")
work = fake.work
LISTS = re.compile(r"^/v1/(apps|territories)(/[^/]+/(inAppPurchasesV2|subscriptionGroups))?$"
                   r"|^/v1/subscriptionGroups/[^/]+/subscriptions$")


def plan(path, *extra):
    fake.clear_requests()
    started = time.time()
    result = subprocess.run([iapkit, "asc", "plan", path, *extra], env=fake.environment, capture_output=True, text=True)
    return result, time.time() - started, fake.requests()


def git(*arguments):
    subprocess.run(["git", "-C", repo, "-c", "user.name=bench", "-c", "user.email=bench@example.com", *arguments],
                   check=True, capture_output=True)


verdicts = []
try:
    fake.control("POST", "settings", {"rateLimit": 1000000})
    products = fake.seed(catalog)
    repo = os.path.join(work, "repo")
    os.makedirs(repo)
    path = os.path.join(repo, "catalog.yaml")
    shutil.copy(catalog_path, path)
    shot = os.path.join(os.path.dirname(os.path.abspath(catalog_path)), "shot.png")  # the review screenshots
    if os.path.exists(shot):
        shutil.copy(shot, os.path.join(repo, "shot.png"))
    git("init", "-q")
    git("add", "catalog.yaml")
    git("commit", "-q", "-m", "catalog")

    # 1. A pull request that renames 10 products, planned as App Store Connect answers (300 ms a request).
    text = open(path).read()
    for index in range(10):
        product = catalog["products"][index * (len(catalog["products"]) // 10)]
        text = text.replace("referenceName: %s\n" % product["referenceName"],
                            "referenceName: %s (renamed)\n" % product["referenceName"], 1)
    open(path, "w").write(text)
    fake.control("POST", "settings", {"latencyMs": 300})
    result, seconds, sent = plan(path, "--changed-since", "HEAD")
    fake.control("POST", "settings", {"latencyMs": 0})
    pages = [r for r in sent if LISTS.match(r["path"])]
    updates = result.stdout.count("~ inAppPurchase ")
    ok = result.returncode == 0 and len(sent) <= len(pages) + 40 and seconds < 60 and updates == 10
    verdicts.append(ok)
    print("pull-request plan, 10 of %d products changed, 300 ms a request: %d requests (%d list pages + %d), %.1f s, "
          "%d updates shown (target <= list pages + 40, < 60 s): %s"
          % (products, len(sent), len(pages), len(sent) - len(pages), seconds, updates, "PASS" if ok else "FAIL"))
    if result.returncode != 0:
        print(result.stderr[-2000:])

    # 2. The full plan's estimate against what it sends beyond the list pages.
    result, seconds, sent = plan(path)
    pages = [r for r in sent if LISTS.match(r["path"])]
    match = re.search(r"in detail: about (\d+) requests?", result.stderr)
    estimate = int(match.group(1)) if match else -1
    detail = len(sent) - len(pages)
    error = abs(estimate - detail) / max(detail, 1)
    ok = result.returncode == 0 and error <= 0.10
    verdicts.append(ok)
    print("full plan, %d products: estimated %d requests, sent %d beyond %d list pages (%.1f%% off; target <= 10%%), "
          "%.1f s: %s" % (products, estimate, detail, len(pages), 100 * error, seconds, "PASS" if ok else "FAIL"))

    # 3. 1,000 requests left in the hour: stop before the detail reads.
    fake.control("POST", "settings", {"rateLimit": 3600, "rateLimitRemaining": 1000})
    result, seconds, sent = plan(path)
    pages = [r for r in sent if LISTS.match(r["path"])]
    ok = result.returncode == 75 and len(sent) == len(pages)
    verdicts.append(ok)
    print("full plan with 1,000 requests left: exit %d after %d requests, %d of them list pages (target: exit 75, only "
          "list pages): %s" % (result.returncode, len(sent), len(pages), "PASS" if ok else "FAIL"))
    print("  " + (result.stderr.strip().splitlines() or [""])[-1][:300])
finally:
    fake.close()
    shutil.rmtree(work, ignore_errors=True)
sys.exit(0 if all(verdicts) else 1)
