"""Request and response contracts for the fake App Store Connect.

Two implementations share one interface:
- OpenAPIContract reads Apple's OpenAPI document at start-up (never stored in the repository) and validates
  with jsonschema against the operation's own request and response schemas;
- BuiltinContract enforces the hand-written contract in contract_builtin.py.
Both add the checks JSON Schema alone can't express for App Store Connect: unknown attributes and
relationships are refused (the document's schemas don't forbid additional properties).
"""

import json
import re
import threading

import contract_builtin as builtin

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class BodyError:
    __slots__ = ("code", "pointer", "detail")

    def __init__(self, code, pointer, detail):
        self.code, self.pointer, self.detail = code, pointer, detail

    def __repr__(self):
        return "%s at %s: %s" % (self.code, self.pointer, self.detail)


def _section(path):
    """Which part of a request document a JSON pointer is in, to pick App Store Connect's error code."""
    if path and path[0] == "included":
        return "INCLUDED"
    if "relationships" in path:
        return "RELATIONSHIP"
    if "attributes" in path:
        return "ATTRIBUTE"
    return None


def _code(section, what):
    return "ENTITY_ERROR.%s.%s" % (section, what) if section else "ENTITY_ERROR"


def _pointer(path):
    return "/" + "/".join(str(p) for p in path) if path else ""


class _Shape:
    """What a request may carry, for the unknown-member checks: attribute and relationship names of the primary
    data and of each included resource type."""

    def __init__(self, type_, attrs, rels, included):
        self.type, self.attrs, self.rels, self.included = type_, attrs, rels, included


def _unknown_members(doc, shape):
    errors = []
    if not isinstance(doc, dict):
        return errors
    for key in doc:
        if key not in ("data", "included"):
            errors.append(BodyError("ENTITY_ERROR", "/" + key, "'%s' is not allowed in a request document" % key))
    data = doc.get("data")
    if isinstance(data, dict):
        errors += _unknown_in_resource(data, "/data", shape.attrs, shape.rels)
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
            errors += _unknown_in_resource(item, "/included/%d" % i, attrs, rels, "INCLUDED")
    return errors


def _unknown_in_resource(res, base, attrs, rels, section=None):
    errors = []
    for key in res:
        if key not in ("type", "id", "attributes", "relationships"):
            errors.append(BodyError("ENTITY_ERROR", "%s/%s" % (base, key), "'%s' is not a resource member" % key))
    for member, allowed, kind, noun in (("attributes", attrs, "ATTRIBUTE", "an attribute"),
                                        ("relationships", rels, "RELATIONSHIP", "a relationship")):
        given = res.get(member)
        code = _code(section or kind, "UNKNOWN")
        if given is not None and allowed is None:
            errors.append(BodyError(code, "%s/%s" % (base, member), "this resource takes no %s in this request" % member))
        elif isinstance(given, dict):
            for key in given:
                if key not in allowed:
                    errors.append(BodyError(code, "%s/%s/%s" % (base, member, key),
                                            "'%s' is not %s allowed in this request" % (key, noun)))
    return errors


class Stats:
    def __init__(self, mode):
        self.lock = threading.Lock()
        self.mode = mode
        self.bodies = 0
        self.body_refusals = 0
        self.responses = 0
        self.response_failures = []

    def snapshot(self):
        with self.lock:
            return {"mode": self.mode, "requestBodiesValidated": self.bodies, "requestBodiesRefused": self.body_refusals,
                    "responsesValidated": self.responses, "responseFailures": list(self.response_failures)}


class BuiltinContract:
    mode = "builtin"

    def __init__(self):
        self.stats = Stats(self.mode)
        self.shapes = {}
        for op, spec in builtin.BODIES.items():
            inc = {t: (set(a) if a else None, set(r) if r else None) for t, (a, r) in spec["included"].items()}
            self.shapes[op] = _Shape(spec["type"], set(spec["attrs"]) if spec["attrs"] else None,
                                     set(spec["rels"]) if spec["rels"] else None, inc)

    def known(self, op):
        return op in builtin.QUERIES or op in builtin.BODIES or op.endswith("_deleteInstance")

    # -- query parameters
    def query_errors(self, op, params):
        filters, includes = builtin.QUERIES.get(op, ({}, []))
        max_limit = 8000 if op in builtin.BIG_LIMIT_OPS else 200
        errors = []
        for name, value in params.items():
            if name in ("cursor",) or name.startswith("fields["):
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
            if m and m.group(1) == "limit" and m.group(2) in includes:
                if not value.isdigit() or not 1 <= int(value) <= 50:
                    errors.append(("PARAMETER_ERROR.INVALID", name, "'%s' is not a valid limit (1...50)" % value))
                continue
            errors.append(("PARAMETER_ERROR.ILLEGAL", name, "The parameter '%s' can not be used with this request" % name))
        return errors

    # -- request bodies
    def body_errors(self, op, doc):
        spec = builtin.BODIES[op]
        errors = []
        if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict):
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
                            errors += self._resource(item, "/included/%d" % i, t, attrs, [], rels, [], False,
                                                     section="INCLUDED")
        errors += _unknown_members(doc, self.shapes[op])
        self._count(errors)
        return errors

    def _count(self, errors):
        with self.stats.lock:
            self.stats.bodies += 1
            if errors:
                self.stats.body_refusals += 1

    def _resource(self, res, base, type_, attrs, required, rels, required_rels, update, section=None):
        errors = []
        if res.get("type") != type_:
            errors.append(BodyError(_code(section, "INVALID") if section else "ENTITY_ERROR", base + "/type",
                                    "type must be '%s'" % type_))
        if update and not isinstance(res.get("id"), str):
            errors.append(BodyError("ENTITY_ERROR", base + "/id", "an update needs the resource id"))
        if "id" in res and not isinstance(res["id"], str):
            errors.append(BodyError("ENTITY_ERROR", base + "/id", "id must be a string"))
        a = res.get("attributes")
        if required and not isinstance(a, dict):
            errors.append(BodyError(_code(section or "ATTRIBUTE", "REQUIRED"), base + "/attributes",
                                    "attributes are required"))
        elif isinstance(a, dict) and attrs:
            for key in required:
                if a.get(key) is None:
                    errors.append(BodyError(_code(section or "ATTRIBUTE", "REQUIRED"), "%s/attributes/%s" % (base, key),
                                            "'%s' is required" % key))
            for key, value in a.items():
                if key not in attrs or (key in required and value is None):
                    continue  # unknown: reported by _unknown_members; missing: reported above
                msg = _type_error(value, attrs[key])
                if msg:
                    errors.append(BodyError(_code(section or "ATTRIBUTE", "INVALID"),
                                            "%s/attributes/%s" % (base, key), msg))
        elif a is not None and not isinstance(a, dict):
            errors.append(BodyError(_code(section or "ATTRIBUTE", "INVALID"), base + "/attributes", "must be an object"))
        r = res.get("relationships")
        if required_rels and not isinstance(r, dict):
            errors.append(BodyError(_code(section or "RELATIONSHIP", "REQUIRED"), base + "/relationships",
                                    "relationships are required"))
        elif isinstance(r, dict) and rels:
            for key in required_rels:
                if key not in r:
                    errors.append(BodyError(_code(section or "RELATIONSHIP", "REQUIRED"),
                                            "%s/relationships/%s" % (base, key), "'%s' is required" % key))
            for key, value in r.items():
                if key not in rels:
                    continue
                target, card = rels[key]
                msg = _relationship_error(value, target, card)
                if msg:
                    errors.append(BodyError(_code(section or "RELATIONSHIP", "INVALID"),
                                            "%s/relationships/%s" % (base, key), msg))
        return errors

    # -- responses: our own structural checks
    def response_error(self, op, status, doc):
        with self.stats.lock:
            self.stats.responses += 1
        problem = None
        if status >= 400:
            errs = doc.get("errors") if isinstance(doc, dict) else None
            if not errs or any(not all(isinstance(e.get(k), str) for k in ("status", "code", "title")) for e in errs):
                problem = "error document without errors[].status/code/title"
        elif not isinstance(doc, dict) or "data" not in doc or "self" not in doc.get("links", {}):
            problem = "response without data and links.self"
        else:
            items = doc["data"] if isinstance(doc["data"], list) else [doc["data"]]
            for item in items + doc.get("included", []):
                if not isinstance(item, dict) or not isinstance(item.get("type"), str) or not isinstance(item.get("id"), str):
                    problem = "resource without a string type and id"
                    break
            if isinstance(doc["data"], list) and "paging" not in doc.get("meta", {}):
                problem = "collection without meta.paging"
        if problem:
            with self.stats.lock:
                self.stats.response_failures.append({"operation": op, "status": status, "problem": problem})
        return problem


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


class OpenAPIContract:
    """Validates against Apple's OpenAPI document, loaded once; validators are compiled per operation on first use."""
    mode = "openapi"

    def __init__(self, path, operation_ids):
        import jsonschema
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        self.version = doc.get("info", {}).get("version")
        self.schemas = doc["components"]["schemas"]
        self.ops = {}
        for p, item in doc["paths"].items():
            common = item.get("parameters", [])
            for method, op in item.items():
                if isinstance(op, dict) and op.get("operationId") in operation_ids:
                    self.ops[op["operationId"]] = (method, p, op, common)
        missing = set(operation_ids) - set(self.ops)
        if missing:
            raise SystemExit("the OpenAPI document lacks operations: %s" % ", ".join(sorted(missing)))
        _nullable_to_jsonschema(doc)
        self.doc = doc
        self.components = doc["components"]
        self.jsonschema = jsonschema
        self.format_checker = jsonschema.FormatChecker(formats=["date"])
        self.validators = {}
        self.vlock = threading.Lock()
        self.params = {}
        self.shapes = {}
        self.stats = Stats(self.mode)
        for op_id, (method, p, op, common) in self.ops.items():
            params = {}
            for prm in op.get("parameters", []) + common:
                prm = self._resolve(prm)
                if prm.get("in") == "query":
                    params[prm["name"]] = self._resolve(prm.get("schema", {}))
            self.params[op_id] = params
            if "requestBody" in op:
                self.shapes[op_id] = self._shape(self._request_ref(op_id))

    def known(self, op):
        return op in self.ops

    def _resolve(self, s):
        seen = 0
        while isinstance(s, dict) and "$ref" in s and seen < 50:
            ref = s["$ref"]
            if ref.startswith("#/components/"):
                kind, name = ref[len("#/components/"):].split("/", 1)
                s = self.doc["components"][kind][name]
            else:
                break
            seen += 1
        if isinstance(s, dict) and "anyOf" in s and len(s["anyOf"]) == 2 and {"type": "null"} in s["anyOf"]:
            return self._resolve([x for x in s["anyOf"] if x != {"type": "null"}][0])
        return s

    def _request_ref(self, op_id):
        content = self.ops[op_id][2]["requestBody"]["content"]
        return content["application/json"]["schema"]["$ref"]

    def _props(self, schema):
        s = self._resolve(schema)
        return set(s["properties"]) if isinstance(s, dict) and "properties" in s else None

    def _shape(self, ref):
        root = self._resolve({"$ref": ref})
        data = self._resolve(root["properties"]["data"])
        dp = data["properties"]
        t = self._resolve(dp["type"]).get("enum", [None])[0]
        attrs = self._props(dp["attributes"]) if "attributes" in dp else None
        rels = self._props(dp["relationships"]) if "relationships" in dp else None
        included = {}
        if "included" in root["properties"]:
            items = self._resolve(root["properties"]["included"]["items"])
            for option in items.get("oneOf", [items]):
                o = self._resolve(option)
                it = self._resolve(o["properties"]["type"])["enum"][0]
                p = o["properties"]
                included[it] = (self._props(p["attributes"]) if "attributes" in p else None,
                                self._props(p["relationships"]) if "relationships" in p else None)
        return _Shape(t, attrs, rels, included)

    def _validator(self, key, ref):
        v = self.validators.get(key)
        if v is None:
            with self.vlock:
                v = self.validators.get(key)
                if v is None:
                    cls = self.jsonschema.Draft7Validator
                    # The document's components ride along in the root, so "#/components/..." resolves the same
                    # way with every jsonschema version.
                    v = cls({"$ref": ref, "components": self.components},
                            format_checker=self.format_checker if key[0] == "request" else None)
                    self.validators[key] = v
        return v

    def query_errors(self, op, params):
        documented = self.params[op]
        errors = []
        for name, value in params.items():
            if name == "cursor":
                continue
            schema = documented.get(name)
            if schema is None:
                errors.append(("PARAMETER_ERROR.ILLEGAL", name, "The parameter '%s' can not be used with this request" % name))
                continue
            if schema.get("type") == "integer":
                if not value.isdigit() or int(value) < 1 or ("maximum" in schema and int(value) > schema["maximum"]):
                    errors.append(("PARAMETER_ERROR.INVALID", name, "'%s' is not a valid value for '%s'" % (value, name)))
            elif schema.get("type") == "array":
                enum = self._resolve(schema.get("items", {})).get("enum")
                bad = [v for v in value.split(",") if enum is not None and v not in enum]
                if bad:
                    errors.append(("PARAMETER_ERROR.INVALID", name, "invalid value(s) %s for '%s'" % (", ".join(bad), name)))
        return errors

    def body_errors(self, op, doc):
        v = self._validator(("request", op), self._request_ref(op))
        errors = []
        for e in sorted(v.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
            path = list(e.absolute_path)
            section = _section(path)
            if e.validator == "required":
                m = re.match(r"'([^']+)' is a required property", e.message)
                name = m.group(1) if m else "?"
                sec = section or ("ATTRIBUTE" if name == "attributes" else "RELATIONSHIP" if name == "relationships" else None)
                errors.append(BodyError(_code(sec, "REQUIRED"), _pointer(path + [name]), e.message))
            else:
                errors.append(BodyError(_code(section, "INVALID"), _pointer(path), e.message))
        errors += _unknown_members(doc, self.shapes[op])
        with self.stats.lock:
            self.stats.bodies += 1
            if errors:
                self.stats.body_refusals += 1
        return errors

    def response_error(self, op, status, doc):
        responses = self.ops[op][2]["responses"]
        entry = responses.get(str(status))
        if entry is None:
            # Statuses the operation doesn't document (500, 503, 404 on a create...) still carry an error document.
            ref = "#/components/schemas/ErrorResponse" if status >= 400 else None
        else:
            ref = entry.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
        with self.stats.lock:
            self.stats.responses += 1
        if ref is None:
            return None
        v = self._validator(("response", op, status), ref)
        err = next(iter(v.iter_errors(doc)), None)
        if err is None:
            return None
        problem = "%s at %s (schema %s)" % (err.message[:300], _pointer(list(err.absolute_path)), ref.split("/")[-1])
        with self.stats.lock:
            self.stats.response_failures.append({"operation": op, "status": status, "problem": problem})
        return problem


def _nullable_to_jsonschema(node):
    """OpenAPI 3.0's `nullable: true` becomes a JSON Schema that accepts null, in place; bare references get a path."""
    if isinstance(node, list):
        for x in node:
            _nullable_to_jsonschema(x)
        return
    if not isinstance(node, dict):
        return
    for v in node.values():
        _nullable_to_jsonschema(v)
    ref = node.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#"):
        node["$ref"] = "#/components/schemas/" + ref  # the document has a few bare schema names as references
    if node.get("nullable") is True:
        del node["nullable"]
        if "type" in node:
            node["type"] = [node["type"], "null"] if isinstance(node["type"], str) else node["type"] + ["null"]
            if "enum" in node and None not in node["enum"]:
                node["enum"] = node["enum"] + [None]
        else:
            inner = dict(node)
            node.clear()
            node["anyOf"] = [inner, {"type": "null"}]
