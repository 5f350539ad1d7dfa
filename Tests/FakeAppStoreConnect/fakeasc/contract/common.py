"""What both contracts share: the error a request body gets, the unknown-member checks JSON Schema alone can't
express for App Store Connect (the document's schemas don't forbid additional properties), and statistics."""

import threading


class BodyError:
    __slots__ = ("code", "pointer", "detail")

    def __init__(self, code, pointer, detail):
        self.code, self.pointer, self.detail = code, pointer, detail

    def __repr__(self):
        return "%s at %s: %s" % (self.code, self.pointer, self.detail)


def section_of(path):
    """Which part of a request document a JSON pointer is in, to pick App Store Connect's error code."""
    if path and path[0] == "included":
        return "INCLUDED"
    if "relationships" in path:
        return "RELATIONSHIP"
    if "attributes" in path:
        return "ATTRIBUTE"
    return None


def error_code(section, what):
    return "ENTITY_ERROR.%s.%s" % (section, what) if section else "ENTITY_ERROR"


def json_pointer(path):
    return "/" + "/".join(str(p) for p in path) if path else ""


class Shape:
    """What a request may carry, for the unknown-member checks: attribute and relationship names of the primary
    data and of each included resource type."""

    def __init__(self, type_, attrs, rels, included, linkages=False):
        self.type, self.attrs, self.rels, self.included = type_, attrs, rels, included
        self.linkages = linkages  # the body is `{"data": [linkage...]}` (a to-many relationship request)


def unknown_members(doc, shape):
    errors = []
    if not isinstance(doc, dict):
        return errors
    for key in doc:
        if key not in ("data", "included"):
            errors.append(BodyError("ENTITY_ERROR", "/" + key, "'%s' is not allowed in a request document" % key))
    data = doc.get("data")
    if shape.linkages and isinstance(data, list):
        for i, item in enumerate(data):
            for key in item if isinstance(item, dict) else ():
                if key not in ("type", "id"):
                    errors.append(BodyError("ENTITY_ERROR", "/data/%d/%s" % (i, key), "'%s' is not a linkage member" % key))
    if isinstance(data, dict):
        errors += unknown_in_resource(data, "/data", shape.attrs, shape.rels)
    included = doc.get("included")
    if included is not None and not shape.included:
        errors.append(BodyError("ENTITY_ERROR.INCLUDED.INVALID", "/included", "this request takes no included resources"))
    elif isinstance(included, list):
        for i, item in enumerate(included):
            if not isinstance(item, dict):
                continue
            t = item.get("type")
            if t not in shape.included:
                errors.append(BodyError("ENTITY_ERROR.INCLUDED.INVALID", "/included/%d/type" % i,
                                        "'%s' can't be included in this request" % t))
                continue
            attrs, rels = shape.included[t]
            errors += unknown_in_resource(item, "/included/%d" % i, attrs, rels, "INCLUDED")
    return errors


def unknown_in_resource(res, base, attrs, rels, section=None):
    errors = []
    for key in res:
        if key not in ("type", "id", "attributes", "relationships"):
            errors.append(BodyError("ENTITY_ERROR", "%s/%s" % (base, key), "'%s' is not a resource member" % key))
    for member, allowed, kind, noun in (("attributes", attrs, "ATTRIBUTE", "an attribute"),
                                        ("relationships", rels, "RELATIONSHIP", "a relationship")):
        given = res.get(member)
        code = error_code(section or kind, "UNKNOWN")
        if given is not None and allowed is None:
            errors.append(BodyError(code, "%s/%s" % (base, member), "this resource takes no %s in this request" % member))
        elif isinstance(given, dict):
            for key in given:
                if key not in allowed:
                    errors.append(BodyError(code, "%s/%s/%s" % (base, member, key),
                                            "'%s' is not %s allowed in this request" % (key, noun)))
    return errors


def uses_null_to_one(doc):
    """Whether a response relies on the deliberate allowance: `"data": null` for an empty to-one relationship, at
    the top level of a to-one read or in a resource's relationships."""
    if not isinstance(doc, dict) or "data" not in doc:
        return False
    if doc["data"] is None:
        return True
    items = (doc["data"] if isinstance(doc["data"], list) else [doc["data"]]) + doc.get("included", [])
    return any(isinstance(rel, dict) and "data" in rel and rel["data"] is None
               for item in items if isinstance(item, dict)
               for rel in (item.get("relationships") or {}).values())


class Stats:
    def __init__(self, mode, document_version=None, overlays=()):
        self.lock = threading.Lock()
        self.mode = mode
        # Apple's document's info.version and the overlays of later versions applied to it (OpenAPI mode).
        self.document_version, self.overlays = document_version, list(overlays)
        self.bodies = 0
        self.body_refusals = 0
        self.responses = 0
        self.response_failures = []
        self.null_to_one = 0  # responses accepted under the one deliberate allowance (see README)

    def snapshot(self):
        with self.lock:
            return {"mode": self.mode, "documentVersion": self.document_version, "overlays": list(self.overlays),
                    "requestBodiesValidated": self.bodies, "requestBodiesRefused": self.body_refusals,
                    "responsesValidated": self.responses, "responseFailures": list(self.response_failures),
                    "nullToOneAllowed": self.null_to_one}
