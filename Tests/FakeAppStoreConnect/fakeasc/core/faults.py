"""Injected faults (`POST /__fake/faults`): a rule answers a status instead of (`before`) or after (`after`)
performing matching requests, from its `afterNthMatch`-th match on, `count` times."""

import re

from .errors import ApiError

FAULT_STATUSES = (429, 500, 503, 504)


class FaultRules:
    def __init__(self):
        self.rules = []

    def replace(self, rules):
        """Validates and installs a list of rules; returns an error message or None."""
        new = []
        for r in rules:
            if not isinstance(r, dict):
                return "each rule is an object"
            if r.get("status", 500) not in FAULT_STATUSES or r.get("when", "before") not in ("before", "after"):
                return "status must be 429|500|503|504 and when before|after"
            try:
                rx = re.compile(r.get("pathPattern", ""))
            except re.error as e:
                return "bad pathPattern: %s" % e
            new.append({"method": r.get("method", "*").upper(), "pathPattern": r.get("pathPattern", ""), "rx": rx,
                        "status": r.get("status", 500), "count": r.get("count", 1), "retryAfter": r.get("retryAfter"),
                        "when": r.get("when", "before"), "afterNthMatch": r.get("afterNthMatch", 1),
                        "matches": 0, "fired": 0})
        self.rules = new
        return None

    def describe(self):
        return [{k: v for k, v in r.items() if k != "rx"} for r in self.rules]

    def match(self, method, path):
        """The rule that fires for this request, if any (call under the service lock: it counts matches)."""
        for rule in self.rules:
            if rule["method"] not in ("*", method) or not rule["rx"].search(path):
                continue
            rule["matches"] += 1
            if rule["matches"] < rule["afterNthMatch"] or rule["fired"] >= rule["count"]:
                continue
            rule["fired"] += 1
            return rule
        return None


def fault_error(rule, headers):
    status = rule["status"]
    headers["X-Fake-Fault"] = rule["when"]
    extra = {"Retry-After": str(rule["retryAfter"])} if rule.get("retryAfter") is not None else {}
    if status == 429:
        return ApiError(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                        "Injected fault", headers=extra)
    return ApiError(status, "UNEXPECTED_ERROR", "An unexpected error occurred on the server side.",
                    "Injected fault (%s)" % rule["when"], headers=extra)
