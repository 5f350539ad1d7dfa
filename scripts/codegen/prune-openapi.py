#!/usr/bin/env python3
"""Prunes an OpenAPI document to the operations a generator configuration's `filter: operations:` names.

Keeps those operations (and their path items' shared parameters), every component they reach through `$ref`,
and the document's header (openapi, info, servers, security, tags). The generator's own filter keeps the same
closure; pruning first only spares it parsing the other 3 MB of Apple's document, which dominates its run time.

usage: prune-openapi.py CONFIG.yaml DOCUMENT.json OUTPUT.json
"""
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


def main(config_path, document_path, output_path):
    wanted = set(configured_operations(config_path))
    if not wanted:
        sys.exit(f"error: no operations under filter: operations: in {config_path}")
    with open(document_path, encoding="utf-8") as handle:
        document = json.load(handle)

    paths, found = {}, set()
    for path, item in document.get("paths", {}).items():
        kept = {}
        for key, value in item.items():
            if key in METHODS:
                if value.get("operationId") in wanted:
                    kept[key] = value
                    found.add(value["operationId"])
        if kept:
            kept.update({key: value for key, value in item.items() if key not in METHODS})
            paths[path] = kept
    missing = sorted(wanted - found)
    if missing:
        sys.exit("error: operations not in the document: " + ", ".join(missing))

    components = document.get("components", {})
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
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
