#!/usr/bin/env bash
# Writes the generated files (`make docs`): docs/lint-rules.md from the built iapkit's rules, schemas/catalog.schema.json
# from its declarations of the catalog's keys, and docs/catalog-reference.md from that schema. Each is written to a
# temporary file and moved into place, so a failure leaves the old one.
set -euo pipefail
cd "$(dirname "$0")/../.."
iapkit=${1:-.build/debug/iapkit}
temporary=$(mktemp docs/.lint-rules.XXXXXX)
trap 'rm -f "$temporary"' EXIT
"$iapkit" lint rules --format markdown > "$temporary"
chmod 644 "$temporary"
mv "$temporary" docs/lint-rules.md
schema=$(mktemp schemas/.catalog.schema.XXXXXX)
trap 'rm -f "$temporary" "$schema"' EXIT
"$iapkit" lint schema > "$schema"
chmod 644 "$schema"
mv "$schema" schemas/catalog.schema.json
python3 scripts/docs/catalog-reference.py
echo "wrote docs/lint-rules.md, schemas/catalog.schema.json and docs/catalog-reference.md"
