#!/usr/bin/env bash
# Writes the generated pages in docs/ (`make docs`): the lint rules from the built iapkit, the catalog reference
# from the schema. Each page is written to a temporary file and moved into place, so a failure leaves the old page.
set -euo pipefail
cd "$(dirname "$0")/../.."
iapkit=${1:-.build/debug/iapkit}
temporary=$(mktemp docs/.lint-rules.XXXXXX)
trap 'rm -f "$temporary"' EXIT
"$iapkit" lint rules --format markdown > "$temporary"
chmod 644 "$temporary"
mv "$temporary" docs/lint-rules.md
python3 scripts/docs/catalog-reference.py
echo "wrote docs/lint-rules.md and docs/catalog-reference.md"
