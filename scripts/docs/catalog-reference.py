#!/usr/bin/env python3
"""Writes docs/catalog-reference.md from schemas/catalog.schema.json: every key with its type, whether it is
required, its default, App Store Connect's limits the schema states, what it means, and an example value from
examples/catalog.yaml. `make docs` runs it; `--check` exits 1 when the committed page differs."""
import json
import os
import re
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "schemas", "catalog.schema.json")
EXAMPLE = os.path.join(ROOT, "examples", "catalog.yaml")
PAGE = os.path.join(ROOT, "docs", "catalog-reference.md")
# The schema's patterns in words; a pattern not listed is shown as it is.
PATTERNS = {
    "^[A-Z]{3}$": "a territory code, three capital letters such as `USA`",
    "^([A-Z]{3}|others)$": "a territory code, or `others`",
    "^[0-9]+$": "digits only",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "a date, `YYYY-MM-DD`",
    "^\\d{4}-\\d{2}-\\d{2}$": "a date, `YYYY-MM-DD`",
    "^[A-Za-z0-9._-]{1,100}$": "1 to 100 letters, digits, `.`, `_` or `-`",
    "^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$": "letters, digits and `-`, with a letter or digit first and last",
    "^[A-Za-z0-9]{1,64}$": "1 to 64 letters or digits",
    "^([1-5]\\.(0|[1-9][0-9]?)|6\\.[0-3])$": "a StoreKit format version, `MAJOR.MINOR`",
    "^\\d+(\\.\\d+)?$": "as text, digits with an optional decimal part, such as `0.99`",
}


def anchor(name):
    return re.sub(r"[^a-z0-9-]", "", name.lower().replace(" ", "-"))


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


class Reference:
    def __init__(self, schema, example):
        self.schema = schema
        self.example = example
        self.sections = []  # (title, intro, rows)
        self.queued = []

    def type_of(self, node, path):
        """The key's type in words, with a link to the section of an object it holds."""
        if "$ref" in node:
            parts = node["$ref"].split("/")
            if len(parts) == 5 and parts[3] == "properties":  # #/$defs/OWNER/properties/KEY
                return f"as [{parts[2]}](#{anchor(parts[2])})'s `{parts[4]}`"
            name = parts[-1]
            return f"[{name}](#{anchor(name)})"
        if "const" in node:
            return f"`{json.dumps(node['const'])}`"
        if "enum" in node:
            return "one of " + ", ".join(f"`{value}`" for value in node["enum"])
        if "oneOf" in node or "anyOf" in node:
            return " or ".join(self.type_of(option, path) for option in node.get("oneOf", node.get("anyOf")))
        kind = node.get("type")
        if kind == "array":
            items = node.get("items", {})
            return "list of " + self.type_of(items, path + "[]")
        if kind == "object" and "properties" in node:
            self.queued.append((path, node))
            return f"[object](#{anchor(path)})"
        if kind == "object" and isinstance(node.get("additionalProperties"), dict):
            return "map of " + self.type_of(node["additionalProperties"], path + ".*")
        if isinstance(kind, list):
            return " or ".join(kind)
        return kind or "any"

    @staticmethod
    def limits(node):
        """The limits the schema states for `node`, as a sentence: `At most 30 characters.`"""
        found = Reference.limit_list(node)
        if not found:
            return ""
        text = "; ".join(found)
        return text[0].upper() + text[1:] + "."

    @staticmethod
    def limit_list(node):
        found = []
        if "minimum" in node and "maximum" in node:
            found.append(f"{node['minimum']} to {node['maximum']}")
        def items(count):
            return f"{count} item" + ("" if count == 1 else "s")
        phrases = [("minLength", lambda n: f"at least {n} characters"), ("maxLength", lambda n: f"at most {n} characters"),
                   ("exclusiveMinimum", lambda n: f"over {n}"), ("minItems", lambda n: f"at least {items(n)}"),
                   ("maxItems", lambda n: f"at most {items(n)}")]
        if not ("minimum" in node and "maximum" in node):
            phrases += [("minimum", lambda n: f"at least {n}"), ("maximum", lambda n: f"at most {n}")]
        found += [phrase(node[key]) for key, phrase in phrases if key in node]
        if "pattern" in node:
            words = PATTERNS.get(node["pattern"])
            found.append(words if words else f"matches `{node['pattern']}`")
        items_node = node.get("items")
        if isinstance(items_node, dict) and "$ref" not in items_node:
            found += ["each " + limit for limit in Reference.limit_list(items_node)]
        if node.get("uniqueItems"):
            found.append("no value twice")
        return found

    @staticmethod
    def default(node):
        if "default" in node:
            return f"`{json.dumps(node['default'])}`"
        match = re.search(r"(?:^|[;:.] )(`[^`]+`|[\w.+-]+) when absent", node.get("description", ""))
        if match:
            return match.group(1) if match.group(1).startswith("`") else f"`{match.group(1)}`"
        return ""

    def example_of(self, path):
        """The first value at `path` (dotted, `[]` for list items) in the example catalog, when it is short."""
        values = [self.example]
        for part in path.split("."):
            list_items = part.endswith("[]")
            key = part[:-2] if list_items else part
            values = [value[key] for value in values if isinstance(value, dict) and key in value]
            if list_items:
                values = [item for value in values if isinstance(value, list) for item in value]
        for value in values:
            if isinstance(value, (dict, list)):
                continue
            text = json.dumps(value, ensure_ascii=False, default=str)
            if len(text) <= 40:
                return f"`{text}`"
        return ""

    def section(self, title, node, path):
        required = set(node.get("required", []))
        rows = []
        for key, child in node.get("properties", {}).items():
            child_path = f"{path}.{key}" if path else key
            rows.append((key, self.type_of(child, child_path), "yes" if key in required else "",
                         self.default(child), self.limits(child), child.get("description", ""),
                         self.example_of(child_path)))
        self.sections.append((title, node.get("description", ""), rows))

    def build(self):
        self.section("Catalog", self.schema, "")
        defs = self.schema.get("$defs", {})
        # The definitions, each at the first path the example catalog uses it, for examples.
        def_paths = {"product": "products[]", "group": "subscriptionGroups[]", "subscription": "subscriptionGroups[].subscriptions[]",
                     "localization": "products[].localizations[]", "groupLocalization": "subscriptionGroups[].localizations[]",
                     "review": "products[].review", "assetPack": "assetPacks[]", "availability": "products[].availability",
                     "billingPlan": "subscriptionGroups[].subscriptions[].billingPlans[]"}
        while self.queued:
            path, node = self.queued.pop(0)
            self.section(path, node, path)
        for name, node in defs.items():
            if node.get("type") == "object" and "properties" in node:
                self.section(name, node, def_paths.get(name, name))
            else:
                self.sections.append((name, node.get("description", ""), None, self.type_of(node, name), self.limits(node)))
            while self.queued:
                path, child = self.queued.pop(0)
                self.section(path, child, path)

    def markdown(self):
        out = ["# Catalog reference", "",
               "<!-- Generated by `make docs` (scripts/docs/catalog-reference.py) from schemas/catalog.schema.json and "
               "examples/catalog.yaml. Edit the schema, not this page: a test fails when the two differ. -->", "",
               "Every key of a catalog (schema version 1), object by object: its type, whether it is required, its "
               "value when absent, the limits the schema checks (lint checks App Store Connect's other limits, see "
               "[Lint rules](lint-rules.md)), what it means, and a value from `examples/catalog.yaml`. "
               "[The catalog](catalog.md) explains the file as a whole; editors that read JSON Schema complete and check "
               "the catalog with `catalog.schema.json`, which `iapkit init` writes beside it.", ""]
        for entry in self.sections:
            title, intro = entry[0], entry[1]
            out += [f"## {title}", ""]
            if intro:
                out += [cell(intro), ""]
            if entry[2] is None:
                out += [f"Type: {entry[3]}." + (f" {entry[4]}" if entry[4] else ""), ""]
                continue
            out += ["| key | type | required | when absent | limits | meaning | example |",
                    "|---|---|---|---|---|---|---|"]
            for key, kind, required, default, limits, description, example in entry[2]:
                out.append(f"| `{key}` | {cell(kind)} | {required} | {cell(default)} | {cell(limits)} | "
                           f"{cell(description)} | {cell(example)} |")
            out.append("")
        return "\n".join(out)


def main():
    with open(SCHEMA, encoding="utf-8") as handle:
        schema = json.load(handle)
    with open(EXAMPLE, encoding="utf-8") as handle:
        example = yaml.safe_load(handle)
    reference = Reference(schema, example)
    reference.build()
    page = reference.markdown()
    if "--check" in sys.argv[1:]:
        with open(PAGE, encoding="utf-8") as handle:
            if handle.read() != page:
                print("docs/catalog-reference.md differs from schemas/catalog.schema.json: run `make docs`", file=sys.stderr)
                return 1
        return 0
    if "--stdout" in sys.argv[1:]:
        sys.stdout.write(page)
        return 0
    descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(PAGE), prefix=".catalog-reference.")
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(page)
    os.chmod(temporary, 0o644)
    os.replace(temporary, PAGE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
