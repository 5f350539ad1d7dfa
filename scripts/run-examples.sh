#!/usr/bin/env bash
# The main job on examples/: lint the catalog, package its hosted content, export catalog JSON.
# Everything lands in out/examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
iapkit=.build/release/iapkit
out=out/examples
rm -rf "$out" && mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

step "iapkit lint catalog examples/catalog.yaml"
$iapkit lint catalog examples/catalog.yaml
$iapkit lint catalog examples/catalog.yaml --format sarif -o "$out/lint.sarif"
$iapkit lint catalog examples/catalog.yaml --format junit -o "$out/lint.junit.xml"

if $iapkit package --help >/dev/null 2>&1 && ! $iapkit package --help | grep -q "Not built yet"; then
  # Work on a copy so the example's iapkit.lock stays as committed.
  cp -R examples "$out/project"
  step "iapkit package --catalog examples/catalog.yaml (pkg and zip)"
  $iapkit package --catalog "$out/project/catalog.yaml" --output "$out/packages"
  $iapkit package --catalog "$out/project/catalog.yaml" --output "$out/zips" --format zip
  rm -rf "$out/project"
fi

if $iapkit export --help >/dev/null 2>&1 && ! $iapkit export --help | grep -q "Not built yet"; then
  step "iapkit export storekit | asc | json | plist"
  $iapkit export storekit examples/catalog.yaml -o "$out/Products.storekit"
  $iapkit export asc examples/catalog.yaml --app-id 1234567890 -o "$out/asc-requests.json"
  $iapkit export json examples/catalog.yaml -o "$out/catalog.json"
  $iapkit export plist examples/catalog.yaml -o "$out/ProductIDs.plist"
fi

step "outputs"
find "$out" -type f | sort | while read -r file; do printf '  %s (%s bytes)\n' "$file" "$(wc -c < "$file" | tr -d ' ')"; done
