"""The fake's own contract, used when Apple's OpenAPI document is not available: the hand-written tables in
builtin_tables.py, checked strictly (every attribute and relationship a request may carry is listed)."""

import re

from . import builtin_tables as builtin
from .builtin_tables import N
from .common import BodyError, Shape, Stats, error_code, unknown_members, uses_null_to_one

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class BuiltinContract:
    mode = "builtin"

    def __init__(self):
        self.stats = Stats(self.mode)
        self.shapes = {}
        for op, spec in builtin.BODIES.items():
            if "linkages" in spec:
                self.shapes[op] = Shape(spec["linkages"], None, None, {}, linkages=True)
                continue
            inc = {t: (set(a) if a else None, set(r) if r else None) for t, (a, r) in spec["included"].items()}
            self.shapes[op] = Shape(spec["type"], set(spec["attrs"]) if spec["attrs"] else None,
                                    set(spec["rels"]) if spec["rels"] else None, inc)

    def known(self, op):
        return op in builtin.QUERIES or op in builtin.BODIES or op.endswith("_deleteInstance")

    def takes_body(self, op):
        return op in builtin.BODIES

    # -- query parameters
    def query_errors(self, op, params):
        filters, includes = builtin.QUERIES.get(op, ({}, []))
        max_limit = 8000 if op in builtin.BIG_LIMIT_OPS else 200
        errors = []
        for name, value in params.items():
            if name == "cursor":
                continue
            if name.startswith("fields["):
                allowed = builtin.FIELDS.get(name[len("fields["):-1])
                bad = [v for v in value.split(",") if allowed is not None and v not in allowed]
                if bad:
                    errors.append(("PARAMETER_ERROR.INVALID", name, "invalid value(s) %s for '%s'" % (", ".join(bad), name)))
                continue
            if name == "limit":
                if not value.isdigit() or not 1 <= int(value) <= max_limit:
                    errors.append(("PARAMETER_ERROR.INVALID", name, "'%s' is not a valid limit (1...%d)" % (value, max_limit)))
                continue
            if name == "include" and includes:
                bad = [v for v in value.split(",") if v not in includes]
                if bad:
                    errors.append(("PARAMETER_ERROR.INVALID", name, "can't include %s" % ", ".join(bad)))
                continue
            m = re.match(r"^(filter|limit)\[([A-Za-z.]+)\]$", name)
            if m and m.group(1) == "filter" and m.group(2) in filters:
                allowed = filters[m.group(2)]
                bad = [v for v in value.split(",") if allowed is not None and v not in allowed]
                if bad:
                    errors.append(("PARAMETER_ERROR.INVALID", name, "invalid value(s) %s" % ", ".join(bad)))
                continue
            if m and m.group(1) == "limit" and m.group(2) in builtin.INCLUDE_LIMITS.get(op, ()):
                most = builtin.INCLUDE_LIMIT_MAX
                if not value.isdigit() or not 1 <= int(value) <= most:
                    errors.append(("PARAMETER_ERROR.INVALID", name, "'%s' is not a valid limit (1...%d)" % (value, most)))
                continue
            errors.append(("PARAMETER_ERROR.ILLEGAL", name, "The parameter '%s' can not be used with this request" % name))
        return errors

    # -- request bodies
    def body_errors(self, op, doc):
        spec = builtin.BODIES[op]
        errors = []
        if "linkages" in spec:
            errors += self._linkages(doc, spec["linkages"])
        elif not isinstance(doc, dict) or not isinstance(doc.get("data"), dict):
            errors.append(BodyError("ENTITY_ERROR", "/data", "the request document needs a 'data' object"))
        else:
            errors += self._resource(doc["data"], "/data", spec["type"], spec["attrs"], spec["required"], spec["rels"],
                                     spec["required_rels"], spec["update"])
            inc = doc.get("included")
            if inc is not None:
                if not isinstance(inc, list):
                    errors.append(BodyError("ENTITY_ERROR.INCLUDED.INVALID", "/included", "'included' must be an array"))
                else:
                    for i, item in enumerate(inc):
                        t = item.get("type") if isinstance(item, dict) else None
                        if t in spec["included"]:
                            attrs, rels = spec["included"][t]
                            required = spec["included_required"].get(t, [])
                            errors += self._resource(item, "/included/%d" % i, t, attrs, required, rels, [], False,
                                                     section="INCLUDED")
        errors += unknown_members(doc, self.shapes[op])
        self._count(errors)
        return errors

    @staticmethod
    def _linkages(doc, type_):
        data = doc.get("data") if isinstance(doc, dict) else None
        if not isinstance(data, list):
            return [BodyError("ENTITY_ERROR", "/data", "the request document needs a 'data' array of linkages")]
        return [BodyError("ENTITY_ERROR.RELATIONSHIP.INVALID", "/data/%d" % i, msg)
                for i, msg in enumerate(_ref_error(ref, type_) for ref in data) if msg]

    def _count(self, errors):
        with self.stats.lock:
            self.stats.bodies += 1
            if errors:
                self.stats.body_refusals += 1

    def _resource(self, res, base, type_, attrs, required, rels, required_rels, update, section=None):
        errors = []
        if res.get("type") != type_:
            errors.append(BodyError(error_code(section, "INVALID") if section else "ENTITY_ERROR", base + "/type",
                                    "type must be '%s'" % type_))
        if update and not isinstance(res.get("id"), str):
            errors.append(BodyError("ENTITY_ERROR", base + "/id", "an update needs the resource id"))
        if "id" in res and not isinstance(res["id"], str):
            errors.append(BodyError("ENTITY_ERROR", base + "/id", "id must be a string"))
        a = res.get("attributes")
        if required and not isinstance(a, dict):
            errors.append(BodyError(error_code(section or "ATTRIBUTE", "REQUIRED"), base + "/attributes",
                                    "attributes are required"))
        elif isinstance(a, dict) and attrs:
            for key in required:
                if a.get(key) is None:
                    errors.append(BodyError(error_code(section or "ATTRIBUTE", "REQUIRED"), "%s/attributes/%s" % (base, key),
                                            "'%s' is required" % key))
            for key, value in a.items():
                if key not in attrs or (key in required and value is None):
                    continue  # unknown: reported by unknown_members; missing: reported above
                msg = _type_error(value, attrs[key])
                if msg:
                    errors.append(BodyError(error_code(section or "ATTRIBUTE", "INVALID"),
                                            "%s/attributes/%s" % (base, key), msg))
        elif a is not None and not isinstance(a, dict):
            errors.append(BodyError(error_code(section or "ATTRIBUTE", "INVALID"), base + "/attributes", "must be an object"))
        r = res.get("relationships")
        if required_rels and not isinstance(r, dict):
            errors.append(BodyError(error_code(section or "RELATIONSHIP", "REQUIRED"), base + "/relationships",
                                    "relationships are required"))
        elif isinstance(r, dict) and rels:
            for key in required_rels:
                if key not in r:
                    errors.append(BodyError(error_code(section or "RELATIONSHIP", "REQUIRED"),
                                            "%s/relationships/%s" % (base, key), "'%s' is required" % key))
            for key, value in r.items():
                if key not in rels:
                    continue
                target, card = rels[key]
                msg = _relationship_error(value, target, card)
                if msg:
                    errors.append(BodyError(error_code(section or "RELATIONSHIP", "INVALID"),
                                            "%s/relationships/%s" % (base, key), msg))
        return errors

    # -- responses: our own structural checks
    def response_error(self, op, status, doc, newer=False):
        """`newer`: the fake answers as a newer App Store Connect (`unknownAttributes`), so an attribute's value may be
        one the tables do not list; the structure is still checked."""
        with self.stats.lock:
            self.stats.responses += 1
            if status < 300 and uses_null_to_one(doc):
                self.stats.null_to_one += 1
        problem = None
        if status >= 400:
            errs = doc.get("errors") if isinstance(doc, dict) else None
            if not errs or any(not all(isinstance(e.get(k), str) for k in ("status", "code", "title")) for e in errs):
                problem = "error document without errors[].status/code/title"
        elif not isinstance(doc, dict) or "data" not in doc or "self" not in doc.get("links", {}):
            problem = "response without data and links.self"
        elif doc["data"] is None and op.endswith("_getToOneRelated"):
            pass  # the deliberate allowance: an empty to-one relationship is `"data": null`
        else:
            items = doc["data"] if isinstance(doc["data"], list) else [doc["data"]]
            for item in items + doc.get("included", []):
                if not isinstance(item, dict) or not isinstance(item.get("type"), str) or not isinstance(item.get("id"), str):
                    problem = "resource without a string type and id"
                    break
                problem = None if newer else _attribute_problem(item)
                if problem:
                    break
            if isinstance(doc["data"], list) and "paging" not in doc.get("meta", {}):
                problem = "collection without meta.paging"
        if problem:
            with self.stats.lock:
                self.stats.response_failures.append({"operation": op, "status": status, "problem": problem})
        return problem


def _attribute_problem(item):
    """An attribute of a response resource the builtin tables type (`RESOURCE_ATTRIBUTES`) whose value doesn't fit;
    `null` fits every one (App Store Connect answers it for an attribute without a value)."""
    spec = builtin.RESOURCE_ATTRIBUTES.get(item["type"])
    for name, value in (item.get("attributes") or {}).items() if spec else ():
        msg = _type_error(value, N(spec[name])) if name in spec else None
        if msg:
            return "%s %s attribute %s: %s" % (item["type"], item["id"], name, msg)
    return None


def _type_error(value, spec):
    if isinstance(spec, tuple) and spec[0] == "null":
        return None if value is None else _type_error(value, spec[1])
    if value is None:
        return "may not be null"
    if isinstance(spec, list):
        return None if value in spec else "'%s' is not one of %s" % (value, ", ".join(spec))
    if spec == "string":
        return None if isinstance(value, str) else "must be a string"
    if spec == "boolean":
        return None if isinstance(value, bool) else "must be a boolean"
    if spec == "integer":
        return None if isinstance(value, int) and not isinstance(value, bool) else "must be an integer"
    if spec == "date":
        return None if isinstance(value, str) and DATE_RE.match(value) else "must be a date (YYYY-MM-DD)"
    if isinstance(spec, tuple) and spec[0] == "array":
        if not isinstance(value, list):
            return "must be an array"
        for v in value:
            msg = _type_error(v, spec[1])
            if msg:
                return msg
        return None
    if isinstance(spec, tuple) and spec[0] == "object":
        if not isinstance(value, dict):
            return "must be an object"
        for k, v in value.items():
            if k not in spec[1]:
                return "'%s' is not a member" % k
            msg = _type_error(v, spec[1][k])
            if msg:
                return "%s: %s" % (k, msg)
        return None
    return "unsupported value"


def _ref_error(ref, target):
    if not isinstance(ref, dict) or not isinstance(ref.get("id"), str) or "type" not in ref:
        return "a resource identifier needs 'type' and 'id'"
    if ref["type"] != target:
        return "type must be '%s', not '%s'" % (target, ref["type"])
    return None


def _relationship_error(value, target, card):
    if not isinstance(value, dict) or "data" not in value:
        return "a relationship needs 'data'"
    data = value["data"]
    if card == "many":
        if not isinstance(data, list):
            return "'data' must be an array of resource identifiers"
        for ref in data:
            msg = _ref_error(ref, target)
            if msg:
                return msg
        return None
    return _ref_error(data, target)
