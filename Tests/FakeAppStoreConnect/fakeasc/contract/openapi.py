"""Validation against Apple's OpenAPI document, read at start-up (never stored in the repository): request bodies
and query parameters against the operation's own schema and parameters, responses against its documented response
schemas, compiled per operation on first use."""

import copy
import json
import os
import re
import threading

from .common import BodyError, Shape, Stats, error_code, json_pointer, section_of, unknown_members, uses_null_to_one


class OpenAPIContract:
    """Validates against Apple's OpenAPI document, loaded once; validators are compiled per operation on first use."""
    mode = "openapi"

    def __init__(self, path, operation_ids, overlays=None):
        import jsonschema
        doc, self.overlays = load_document(path, overlays)
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
        _allow_empty_to_one(doc["components"]["schemas"])
        _allow_null_attributes(doc["components"]["schemas"])
        self.doc = doc
        self.components = doc["components"]
        self.jsonschema = jsonschema
        self.format_checker = jsonschema.FormatChecker(formats=["date"])
        self.validators = {}
        self.vlock = threading.Lock()
        self.params = {}
        self.shapes = {}
        self.stats = Stats(self.mode, self.version, self.overlays)
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

    def takes_body(self, op):
        return "requestBody" in self.ops[op][2]

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
        if data.get("type") == "array":  # a to-many relationship request: `{"data": [linkage...]}`
            item = self._resolve(data["items"])
            return Shape(self._resolve(item["properties"]["type"]).get("enum", [None])[0], None, None, {}, linkages=True)
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
        return Shape(t, attrs, rels, included)

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
            section = section_of(path)
            if e.validator == "required":
                m = re.match(r"'([^']+)' is a required property", e.message)
                name = m.group(1) if m else "?"
                sec = section or ("ATTRIBUTE" if name == "attributes" else "RELATIONSHIP" if name == "relationships" else None)
                errors.append(BodyError(error_code(sec, "REQUIRED"), json_pointer(path + [name]), e.message))
            else:
                errors.append(BodyError(error_code(section, "INVALID"), json_pointer(path), e.message))
        errors += unknown_members(doc, self.shapes[op])
        with self.stats.lock:
            self.stats.bodies += 1
            if errors:
                self.stats.body_refusals += 1
        return errors

    def response_error(self, op, status, doc, newer=False):
        responses = self.ops[op][2]["responses"]
        entry = responses.get(str(status))
        if entry is None:
            # Statuses the operation doesn't document (500, 503, 404 on a create...) still carry an error document.
            ref = "#/components/schemas/ErrorResponse" if status >= 400 else None
        else:
            ref = entry.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
        with self.stats.lock:
            self.stats.responses += 1
            if status < 300 and uses_null_to_one(doc):
                self.stats.null_to_one += 1
        if ref is None:
            return None
        if status == 200 and op.endswith("_getToOneRelated") and isinstance(doc, dict) and doc.get("data", 0) is None:
            ref = EMPTY_TO_ONE_REF  # the deliberate allowance, at the top level of a to-one read
        v = self._validator(("response", op, status, ref), ref)
        err = next(iter(v.iter_errors(sampled(doc))), None)
        if err is None:
            return None
        problem = "%s at %s (schema %s)" % (err.message[:300], json_pointer(list(err.absolute_path)), ref.split("/")[-1])
        with self.stats.lock:
            self.stats.response_failures.append({"operation": op, "status": status, "problem": problem})
        return problem


EMPTY_TO_ONE_REF = "#/components/schemas/FakeEmptyToOneResponse"

# A list longer than this (price points come 8,000 a page) is validated on its first and last items: every item of
# one list comes from one renderer, and validating thousands of them made a page of price points take seconds.
SAMPLED_LIST = 200


def sampled(doc):
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, list) or len(data) <= SAMPLED_LIST:
        return doc
    half = SAMPLED_LIST // 2
    return dict(doc, data=data[:half] + data[-half:])

# Overlays of later API versions on the 4.4.1 document, applied in this order when they lie beside it (the reference
# folder's files; never copied into the repository). Each has `add`: {dotted JSON path: {property: schema}}.
OVERLAYS = ("app-store-connect-4.5-subscriptions.json",)


def overlays_beside(path):
    """The overlay files found in the document's folder, in OVERLAYS order."""
    folder = os.path.dirname(os.path.abspath(path))
    return [os.path.join(folder, name) for name in OVERLAYS if os.path.exists(os.path.join(folder, name))]


def load_document(path, overlays=None):
    """Apple's document with the overlays applied (those beside it when `overlays` is None), and the names of the
    overlays applied."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    applied = []
    for overlay_path in overlays_beside(path) if overlays is None else overlays:
        with open(overlay_path, encoding="utf-8") as f:
            apply_overlay(doc, json.load(f), os.path.basename(overlay_path))
        applied.append(os.path.basename(overlay_path))
    return doc, applied


def apply_overlay(doc, overlay, name="overlay"):
    """Merges each `add` entry's properties into the object at its dotted path. Properties added to a resource's
    attributes (`components.schemas.X.properties.attributes.properties`, X a schema whose `type` is one resource
    type T) are also added to every `fields[T]` query parameter's values, as a later document lists them (the 4.5
    overlay's `fieldsQueryParameter`)."""
    for dotted, properties in overlay.get("add", {}).items():
        node = doc
        for key in dotted.split("."):
            if not isinstance(node, dict) or key not in node:
                raise SystemExit("%s: the OpenAPI document has no %s (at %s)" % (name, dotted, key))
            node = node[key]
        node.update(copy.deepcopy(properties))
        m = re.match(r"^components\.schemas\.([^.]+)\.properties\.attributes\.properties$", dotted)
        if not m:
            continue
        type_enum = doc["components"]["schemas"][m.group(1)].get("properties", {}).get("type", {}).get("enum", [])
        if len(type_enum) == 1:
            _add_fields(doc, type_enum[0], list(properties))


def _add_fields(doc, type_, names):
    """Adds `names` to the values of every `fields[type_]` query parameter (inline or a component)."""
    params = list(doc.get("components", {}).get("parameters", {}).values())
    for item in doc["paths"].values():
        params += item.get("parameters", [])  # the path's own
        for op in item.values():
            if isinstance(op, dict):
                params += op.get("parameters", [])
    for p in params:
        if isinstance(p, dict) and p.get("name") == "fields[%s]" % type_ and p.get("in") == "query":
            enum = p.get("schema", {}).get("items", {}).get("enum")
            if isinstance(enum, list):
                enum += [n for n in names if n not in enum]


def _allow_null_attributes(schemas):
    """The second allowance (README): App Store Connect answers `null` for an attribute it holds no value for
    (`reviewNote`, `startDate`, `contentHosting`, ...), though the document types most of them as non-nullable. With
    the `explicitNulls` setting the fake does the same, so clients are tested against both."""
    for schema in schemas.values():
        props = schema.get("properties", {}) if isinstance(schema, dict) else {}
        if "links" not in props or "attributes" not in props:
            continue
        for name, attribute in list(props["attributes"].get("properties", {}).items()):
            props["attributes"]["properties"][name] = {"anyOf": [attribute, {"type": "null"}]}


def _allow_empty_to_one(schemas):
    """The one deliberate allowance (README): an empty to-one relationship is `"data": null`, as JSON:API says, though
    Apple's response schemas type every to-one linkage as an object. Applied to the resource objects responses carry
    (the schemas with `links` and `relationships`; request schemas have no `links`) and as a response schema of its
    own for the to-one reads."""
    for schema in schemas.values():
        props = schema.get("properties", {}) if isinstance(schema, dict) else {}
        if "links" not in props or "relationships" not in props:
            continue
        for rel in props["relationships"].get("properties", {}).values():
            data = rel.get("properties", {}).get("data")
            if isinstance(data, dict) and data.get("type") == "object":
                rel["properties"]["data"] = {"anyOf": [data, {"type": "null"}]}
    schemas["FakeEmptyToOneResponse"] = {
        "type": "object", "required": ["data", "links"],
        "properties": {"data": {"type": "null"}, "links": {"$ref": "#/components/schemas/DocumentLinks"}}}


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
