"""The control API under /__fake/ (no token): reset, seed apps and resources, settings, faults, the request
log, the state, contract statistics, saving the state file. Documented in README.md."""

import json


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
            return 200, fake.settings
        if (method, name) == ("POST", "faults"):
            rules = doc.get("rules", doc) if isinstance(doc, dict) else doc
            problem = fake.faults.replace(rules if isinstance(rules, list) else [])
            if problem:
                return 400, {"error": problem}
            return 200, {"rules": len(fake.faults.rules)}
        if method == "GET" and name == "faults":
            return 200, {"rules": fake.faults.describe()}
        if method == "GET" and name == "requests":
            return 200, {"requests": fake.log.entries}
        if method == "DELETE" and name == "requests":
            fake.log.clear()
            return 200, {"ok": True}
        if method == "GET" and name == "state":
            return 200, {"resources": {t: [fake.render(r) for r in recs.values()]
                                       for t, recs in fake.store.res.items() if t != "territories"},
                         "usedProductIds": {k: sorted(v) for k, v in fake.store.used_product_ids.items()}}
        if (method, name) == ("POST", "seed"):
            try:
                return 201, fake.seed(doc)
            except (ValueError, KeyError, StopIteration, TypeError) as e:
                return 400, {"error": "bad seed: %r" % (e,)}
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
    return 201, {"id": app["id"]}


def change_settings(fake, doc):
    if not isinstance(doc, dict):
        return 400, {"error": "settings are an object"}
    unknown = set(doc) - set(fake.default_settings()) - {"rateLimitRemaining"}
    if unknown:
        return 400, {"error": "unknown settings %s" % sorted(unknown)}
    if doc.get("emptyToOne", "null") not in ("null", "404"):
        return 400, {"error": "emptyToOne is \"null\" or \"404\""}
    doc = dict(doc)
    if "rateLimitRemaining" in doc:
        doc["rateRemaining"] = doc.pop("rateLimitRemaining")
    if "rateLimit" in doc and "rateRemaining" not in doc:
        doc["rateRemaining"] = doc["rateLimit"]
    fake.settings.update(doc)
    return 200, fake.settings
