#!/usr/bin/env python3
"""Prunes an OpenAPI document to what the code calls.

Keeps the operations a generator configuration's `filter: operations:` names (and their path items' shared
parameters). Of each operation's optional query parameters it keeps only those PARAMETERS.yaml lists for it (the
others, fields[...], limit[...], filter[...], sort and the like, are never sent); a listed `include=a,b` keeps
`include` with only those relationships. An answer's `included` then keeps only the resources a kept `include` of an
operation answering with it can bring, and is left out when there is none (App Store Connect sends `included` only
when a request names relationships, and the generated types ignore a key they do not know). Error answers (400 and
above) are left out too: the client throws them as ASCError in a middleware before the generated code would read
them (one that got through would be `undocumented`). Then every component still reached through `$ref` is kept,
with the document's header (openapi, info, servers, security, tags).

usage: prune-openapi.py CONFIG.yaml PARAMETERS.yaml DOCUMENT.json OUTPUT.json
"""
import copy
import json
import sys

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def configured_operations(config_path):
    """The list under `filter:` / `operations:`; the configuration is simple enough to read without a YAML library."""
    operations, section = [], None
    for line in open(config_path, encoding="utf-8"):
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        indent = len(stripped) - len(stripped.lstrip())
        if indent == 0:
            section = stripped.strip() if stripped.strip() == "filter:" else None
        elif section == "filter:" and indent == 2:
            section = "filter:operations" if stripped.strip() == "operations:" else "filter:"
        elif section == "filter:operations" and stripped.strip().startswith("- "):
            operations.append(stripped.strip()[2:].strip().strip("'\""))
    return operations


def query_parameters(parameters_path):
    """{operation: [parameter, ...]} from a file of `operationId:` lines each followed by `  - parameter` lines."""
    parameters, operation = {}, None
    for number, line in enumerate(open(parameters_path, encoding="utf-8"), 1):
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        text = stripped.strip()
        if not stripped.startswith(" ") and text.endswith(":"):
            operation = text[:-1].strip().strip("'\"")
            if operation in parameters:
                sys.exit(f"error: {parameters_path}:{number}: {operation} is listed twice")
            parameters[operation] = []
        elif stripped.startswith("  - ") and operation:
            parameters[operation].append(text[2:].strip().strip("'\""))
        else:
            sys.exit(f"error: {parameters_path}:{number}: expected `operationId:` or `  - parameter`")
    return parameters


def references(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def schema_name(ref):
    prefix = "#/components/schemas/"
    if not ref.startswith(prefix):
        sys.exit(f"error: unsupported reference {ref}")
    return ref[len(prefix):]


def resource_type(schema):
    """The JSON:API type of a resource schema (its `type` property's single enum value)."""
    values = schema.get("properties", {}).get("type", {}).get("enum", [])
    return values[0] if len(values) == 1 else None


def prune_parameters(operation_id, operation, allowed):
    """Keeps the operation's required and non-query parameters and the optional query parameters `allowed` names;
    `include=a,b` restricts the include enum. Returns the relationships kept in `include`."""
    wanted, includes = set(), []
    for entry in allowed:
        name, _, values = entry.partition("=")
        wanted.add(name)
        if name == "include":
            includes = [value.strip() for value in values.split(",") if value.strip()]
            if not includes:
                sys.exit(f"error: {operation_id}: `include=` names no relationship")
        elif values:
            sys.exit(f"error: {operation_id}: only include takes values ({entry})")
    kept, present = [], set()
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            sys.exit(f"error: {operation_id}: parameter references are not supported")
        name = parameter.get("name")
        present.add(name)
        if parameter.get("in") != "query" or parameter.get("required"):
            kept.append(parameter)
        elif name in wanted:
            if name == "include":
                parameter = copy.deepcopy(parameter)
                documented = parameter["schema"]["items"]["enum"]
                unknown = [value for value in includes if value not in documented]
                if unknown:
                    sys.exit(f"error: {operation_id}: include does not document {', '.join(unknown)}")
                parameter["schema"]["items"]["enum"] = [value for value in documented if value in includes]
            kept.append(parameter)
    unknown = sorted(wanted - present)
    if unknown:
        sys.exit(f"error: {operation_id} has no query parameter {', '.join(unknown)}")
    operation["parameters"] = kept
    if not operation["parameters"]:
        del operation["parameters"]
    return includes


def json_schema_refs(operation):
    """The names of the schemas of the operation's successful JSON answers."""
    for status, response in operation.get("responses", {}).items():
        if not status.startswith("2"):
            continue
        for media, content in response.get("content", {}).items():
            if "json" in media and "$ref" in content.get("schema", {}):
                yield schema_name(content["schema"]["$ref"])


def included_types(schemas, response, includes, operation_id):
    """The resource types the relationships `includes` of the answer's primary data can bring."""
    data = schemas[response].get("properties", {}).get("data", {})
    ref = data.get("$ref") or data.get("items", {}).get("$ref")
    if not ref:
        sys.exit(f"error: {operation_id}: the data of {response} is not a resource reference")
    relationships = schemas[schema_name(ref)].get("properties", {}).get("relationships", {}).get("properties", {})
    types = set()
    for relationship in includes:
        linkage = relationships.get(relationship, {}).get("properties", {}).get("data", {})
        linkage = linkage.get("items", linkage)
        values = linkage.get("properties", {}).get("type", {}).get("enum", [])
        if not values:
            sys.exit(f"error: {operation_id}: {schema_name(ref)} has no relationship {relationship} to include")
        types.update(values)
    return types


def prune_included(schemas, name, types):
    """Keeps the `included` members of the answer schema `name` whose type is in `types`; drops `included` if none."""
    schema = schemas[name] = copy.deepcopy(schemas[name])
    included = schema["properties"]["included"]
    union = included.get("items", {})
    members = union.get("oneOf") or ([union] if "$ref" in union else None)
    if members is None or any("$ref" not in member for member in members):
        sys.exit(f"error: the included of {name} is not a list of resource references")
    kept = [member for member in members if resource_type(schemas[schema_name(member["$ref"])]) in types]
    if not kept:
        del schema["properties"]["included"]
        if "included" in schema.get("required", []):
            schema["required"] = [key for key in schema["required"] if key != "included"]
        return
    if "oneOf" in union:
        union["oneOf"] = kept
        mapping = union.get("discriminator", {}).get("mapping")
        if mapping is not None:
            refs = {member["$ref"] for member in kept}
            union["discriminator"]["mapping"] = {key: ref for key, ref in mapping.items() if ref in refs}


def main(config_path, parameters_path, document_path, output_path):
    wanted = set(configured_operations(config_path))
    parameters = query_parameters(parameters_path)
    if not wanted:
        sys.exit(f"error: no operations under filter: operations: in {config_path}")
    stray = sorted(set(parameters) - wanted)
    if stray:
        sys.exit(f"error: {parameters_path} names operations not under filter: operations: " + ", ".join(stray))
    with open(document_path, encoding="utf-8") as handle:
        document = json.load(handle)
    components = copy.copy(document.get("components", {}))
    schemas = components["schemas"] = dict(components.get("schemas", {}))

    paths, found, answers = {}, set(), {}
    for path, item in document.get("paths", {}).items():
        kept = {}
        for key, value in item.items():
            if key in METHODS and value.get("operationId") in wanted:
                operation_id = value["operationId"]
                operation = kept[key] = copy.deepcopy(value)
                found.add(operation_id)
                includes = prune_parameters(operation_id, operation, parameters.get(operation_id, []))
                # Answers of 400 and above never reach the generated code: the client's outermost middleware
                # (ASCErrorMiddleware) throws them as ASCError first.
                operation["responses"] = {status: response for status, response in operation["responses"].items()
                                          if not (status.isdigit() and int(status) >= 400)}
                if not operation["responses"]:
                    sys.exit(f"error: {operation_id} documents no answer below 400")
                for response in json_schema_refs(operation):
                    types = answers.setdefault(response, set())
                    if includes:
                        types.update(included_types(schemas, response, includes, operation_id))
        if kept:
            shared = item.get("parameters", [])
            if any(parameter.get("in") == "query" for parameter in shared):
                sys.exit(f"error: {path} shares query parameters between its operations")
            kept.update({key: value for key, value in item.items() if key not in METHODS})
            paths[path] = kept
    missing = sorted(wanted - found)
    if missing:
        sys.exit("error: operations not in the document: " + ", ".join(missing))
    for response, types in answers.items():
        if "included" in schemas[response].get("properties", {}):
            prune_included(schemas, response, types)

    kept_components = {}
    pending = list(references(paths))
    seen = set()
    while pending:
        ref = pending.pop()
        if ref in seen:
            continue
        seen.add(ref)
        parts = ref.split("/")
        if len(parts) != 4 or parts[0] != "#" or parts[1] != "components":
            sys.exit(f"error: unsupported reference {ref}")
        _, _, kind, name = parts
        target = components[kind][name]
        kept_components.setdefault(kind, {})[name] = target
        pending.extend(references(target))
    if "securitySchemes" in components:
        kept_components["securitySchemes"] = components["securitySchemes"]
    # Same order as the original document, so the output is stable.
    ordered = {
        kind: {name: value for name, value in components[kind].items() if name in kept_components[kind]}
        for kind in components
        if kind in kept_components
    }

    pruned = {key: value for key, value in document.items() if key not in ("paths", "components")}
    pruned["paths"] = paths
    pruned["components"] = ordered
    with open(output_path, "w", encoding="utf-8") as handle:
        json.dump(pruned, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    print(f"kept {len(found)} operations and {sum(len(v) for v in ordered.values())} components", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
