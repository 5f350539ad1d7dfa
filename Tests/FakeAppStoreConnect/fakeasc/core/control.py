"""The control API under /__fake/ (no token): reset, seed apps and resources, settings, API keys, faults, the
request log, the state, contract statistics, saving the state file. Documented in README.md."""

import datetime
import json
import time

from .auth import load_public_key
from ..resources.review_submissions import OUTCOMES
from ..territories import CURRENCY


def _count(minimum):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= minimum


def _number(minimum, exclusive=False):
    return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and (v > minimum if exclusive else v >= minimum)


def _optional(check):
    return lambda v: v is None or check(v)


def _flag(v):
    return isinstance(v, bool)


# setting -> what a value must be
def _is_day(value):
    try:
        return isinstance(value, str) and datetime.date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


SETTING_CHECKS = {
    "pageSize": _count(1), "maxPageSize": _optional(_count(1)), "maxTokenAgeSeconds": _optional(_number(0)),
    "rateLimit": _count(0), "rateRemaining": _count(0), "rateLimitRemaining": _count(0),
    "rateLimitWindowSeconds": _number(0, exclusive=True), "autoCreateVersions": _flag,
    "assetProcessingReads": _count(0), "strictOfferRules": _flag, "rateLimitRetryAfter": _flag, "emptyToOne": lambda v: v in ("null", "404"),
    "firstPriceByPostFails": _flag, "explicitNulls": _flag, "omitLastPageLinks": _flag,
    "unknownAttributes": _flag, "pricesWithoutRelationships": _flag, "emptyPointTerritory": _flag,
    "linksOnly": lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
    "storefronts": lambda v: v is None or (isinstance(v, list) and "USA" in v and all(t in CURRENCY for t in v)),
    # Currencies App Store Connect answers for some storefronts instead of the table's (a table gone stale).
    "currencies": lambda v: isinstance(v, dict) and all(t in CURRENCY and isinstance(c, str) and len(c) == 3
                                                         for t, c in v.items()),
    "latencyMs": lambda v: _number(0)(v) and v <= 60000,
    "holdWrite": _optional(_count(1)),
    "today": lambda v: v is None or _is_day(v),
    "backgroundAssetProcessing": lambda v: v in ("COMPLETE", "FAILED"), "backgroundAssetProcessingReads": _count(0),
    "multiSeatFamilyRule": _flag,
}


def handle(fake, method, name, body):
    """Answers one control request: (status, JSON document)."""
    try:
        doc = json.loads(body) if body else {}
    except ValueError:
        return 400, {"error": "control requests take JSON"}
    with fake.lock:
        if (method, name) == ("POST", "reset"):
            fake.reset()
            return 200, {"ok": True}
        if (method, name) == ("POST", "apps"):
            return add_app(fake, doc)
        if (method, name) == ("POST", "settings"):
            return change_settings(fake, doc)
        if method == "GET" and name == "settings":
            return 200, fake.settings_view()
        if (method, name) == ("POST", "keys"):
            return add_key(fake, doc)
        if method == "GET" and name == "keys":
            return 200, {"keys": sorted(fake.keys)}
        if (method, name) == ("POST", "faults"):
            rules = doc.get("rules", doc) if isinstance(doc, dict) else doc
            problem = fake.faults.replace(rules if isinstance(rules, list) else [])
            if problem:
                return 400, {"error": problem}
            return 200, {"rules": len(fake.faults.rules)}
        if method == "GET" and name == "faults":
            return 200, {"rules": fake.faults.describe()}
        if method == "GET" and name == "requests":
            return 200, fake.log.document()
        if method == "DELETE" and name == "requests":
            fake.log.clear()
            return 200, {"ok": True}
        if method == "GET" and name == "state":
            return 200, {"resources": {t: [fake.render(r, linkage="all") for r in recs.values()]
                                       for t, recs in fake.store.res.items() if t != "territories"},
                         "usedProductIds": {k: sorted(v) for k, v in fake.store.used_product_ids.items()}}
        if (method, name) == ("POST", "seed"):
            try:
                return 201, fake.seed(doc)
            except (ValueError, KeyError, StopIteration, TypeError) as e:
                return 400, {"error": "bad seed: %r" % (e,)}
        if (method, name) in (("POST", "generate"), ("POST", "managed")):
            app = fake.store.get("apps", str(doc.get("appId", "")))
            if app is None:
                return 400, {"error": "%s needs the appId of an app created with POST /__fake/apps" % name}
            if name == "managed":
                return 200, fake.managed_view(app, deactivated=doc.get("deactivated", True) is not False)
            if not isinstance(doc.get("seed"), int):
                return 400, {"error": "generate needs a whole-number seed"}
            return 201, fake.generate(app, doc["seed"], doc.get("products"))
        if (method, name) == ("POST", "review"):
            return review(fake, doc)
        if (method, name) == ("POST", "approve"):
            return approve(fake, doc)
        if method == "GET" and name == "validations":
            return 200, fake.contract.stats.snapshot()
        if (method, name) == ("POST", "save"):
            fake.save()
            return 200, {"ok": bool(fake.state_file)}
    return 404, {"error": "unknown control endpoint %s /__fake/%s" % (method, name)}


def add_app(fake, doc):
    if not isinstance(doc, dict) or not doc.get("bundleId"):
        return 400, {"error": "an app needs a bundleId"}
    app = {"type": "apps", "id": doc.get("id") or fake.store.new_id(True),
           "attributes": {"name": doc.get("name", "App"), "bundleId": doc["bundleId"],
                          "sku": doc.get("sku", doc["bundleId"]), "primaryLocale": doc.get("primaryLocale", "en-US")},
           "rels": {}}
    fake.store.put(app)
    fake.grace_period(app)  # every app has its Billing Grace Period from the start
    return 201, {"id": app["id"]}


def review(fake, doc):
    """App Review's answer to the app's submissions: {"appId", "outcome": "approve" | "inReview"}."""
    app = fake.store.get("apps", str(doc.get("appId", ""))) if isinstance(doc, dict) else None
    if app is None:
        return 400, {"error": "review needs the appId of an app created with POST /__fake/apps"}
    if doc.get("outcome") not in OUTCOMES:
        return 400, {"error": "outcome must be one of %s" % ", ".join(OUTCOMES)}
    return 200, {"reviewSubmissions": fake.review_outcome(app, doc["outcome"])}


def approve(fake, doc):
    """App Review's approval of products outside a review submission, for tests that need an approved product:
    {"appId"?, "productIds"?: [productId, …]} (every product of the app, or of every app, when left out). Answers
    {"approved": [productId, …]}."""
    doc = doc if isinstance(doc, dict) else None
    wanted = doc.get("productIds") if doc else None
    if doc is None or (wanted is not None and (not isinstance(wanted, list) or not all(isinstance(p, str) for p in wanted))):
        return 400, {"error": "approve takes an appId and a list of productIds, both optional"}
    if "appId" in doc:
        app = fake.store.get("apps", str(doc["appId"]))
        if app is None:
            return 400, {"error": "approve needs the appId of an app created with POST /__fake/apps"}
        products = fake.products_of(app)
    else:
        products = [p for app in fake.store.res.get("apps", {}).values() for p in fake.products_of(app)]
    if wanted is None:
        wanted = [p["attributes"].get("productId") for p in products]
    approved = []
    for product in products:
        if product["attributes"].get("productId") in wanted:
            product["attributes"]["state"] = "APPROVED"
            approved.append(product["attributes"]["productId"])
    unknown = sorted(set(wanted) - set(approved))
    if unknown:
        return 400, {"error": "the app has no product %s" % ", ".join(unknown)}
    return 200, {"approved": sorted(approved)}


def add_key(fake, doc):
    """Another API key of the same issuer (its own rate limit budget): {"keyId", "publicKey": PEM text}."""
    if not isinstance(doc, dict) or not isinstance(doc.get("keyId"), str) or not isinstance(doc.get("publicKey"), str):
        return 400, {"error": "a key needs keyId and publicKey (PEM)"}
    try:
        fake.keys[doc["keyId"]] = load_public_key(doc["publicKey"].encode())
    except (ValueError, TypeError) as e:
        return 400, {"error": "bad public key: %s" % e}
    return 201, {"keyId": doc["keyId"]}


def change_settings(fake, doc):
    if not isinstance(doc, dict):
        return 400, {"error": "settings are an object"}
    unknown = set(doc) - set(SETTING_CHECKS)
    if unknown:
        return 400, {"error": "unknown settings %s" % sorted(unknown)}
    bad = sorted(k for k, v in doc.items() if not SETTING_CHECKS[k](v))
    if bad:
        return 400, {"error": "invalid values for %s" % bad}
    doc = dict(doc)
    remaining = doc.pop("rateLimitRemaining", doc.pop("rateRemaining", None))
    now = time.time()
    if "rateLimitWindowSeconds" in doc:
        fake.budget.window = doc["rateLimitWindowSeconds"]
    if "rateLimit" in doc:
        fake.budget.limit = doc["rateLimit"]
        if remaining is None:
            fake.budget.forget()  # a new budget starts full
    if remaining is not None:
        fake.budget.set_remaining(remaining, fake.keys, now)
    fake.settings.update(doc)
    return 200, fake.settings_view()
