#!/usr/bin/env python3
"""Applies an overlay of a newer API version's additions to Apple's OpenAPI document.

    apply-overlay.py DOCUMENT.json OVERLAY.json OUTPUT.json

The overlay's `add` maps a dotted path in the document (`components.schemas.Subscription.properties.attributes.
properties`) to the properties to add there. Apple publishes the full document of some versions only; the overlay
states what a later version changed in the parts iapkit reads, so the client and the fake learn exactly that and
nothing guessed. A path that does not lead to an object, or a property the document already has with another
schema, stops the generation: the overlay was written for another document.
"""
import json
import sys


def apply(document, overlay):
    for dotted, properties in overlay["add"].items():
        node = document
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                sys.exit("error: the overlay's path %s does not lead to an object in the document (at %s)" % (dotted, part))
            node = node[part]
        for name, schema in properties.items():
            if name in node and node[name] != schema:
                sys.exit("error: the document already has %s.%s, differently from the overlay" % (dotted, name))
            node[name] = schema
    return document


def main(document_path, overlay_path, output_path):
    with open(document_path, encoding="utf-8") as handle:
        document = json.load(handle)
    with open(overlay_path, encoding="utf-8") as handle:
        overlay = json.load(handle)
    with open(output_path, "w", encoding="utf-8") as handle:
        json.dump(apply(document, overlay), handle)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
