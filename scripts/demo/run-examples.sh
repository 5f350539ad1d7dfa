#!/usr/bin/env bash
# The main job on examples/: lint the catalog, package its hosted content, export catalog JSON.
# Everything lands in out/examples/.
set -euo pipefail
cd "$(dirname "$0")/../.."
iapkit=.build/release/iapkit
out=out/examples
rm -rf "$out" && mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

step "iapkit lint catalog examples/catalog.yaml"
$iapkit lint catalog examples/catalog.yaml
$iapkit lint catalog examples/catalog.yaml --format sarif -o "$out/lint.sarif"
$iapkit lint catalog examples/catalog.yaml --format junit -o "$out/lint.junit.xml"

# Package a copy, so the lock iapkit records beside the catalog lands in out/ instead of changing examples/.
cp -R examples "$out/project"
step "iapkit package --catalog examples/catalog.yaml (pkg and zip)"
$iapkit package --catalog "$out/project/catalog.yaml" --output "$out/packages"
$iapkit package --catalog "$out/project/catalog.yaml" --output "$out/zips" --format zip
mv "$out/project/iapkit.lock" "$out/iapkit.lock"
rm -rf "$out/project"

step "iapkit export storekit | asc | json | plist"
$iapkit export storekit examples/catalog.yaml -o "$out/Products.storekit"
$iapkit export asc examples/catalog.yaml --app-id 1234567890 -o "$out/asc-requests.json"
$iapkit export json examples/catalog.yaml -o "$out/catalog.json"
$iapkit export plist examples/catalog.yaml -o "$out/ProductIDs.plist"

# The sync needs App Store Connect; here it runs against the project's fake on loopback, with a throwaway key.
step "iapkit asc push, plan --check, prices, pull (against a local fake App Store Connect)"
fake=$(mktemp -d)
eval "$(python3 scripts/demo/start-fake-asc.py --bundle-id com.example.fruitstand --dir "$fake")"
trap 'kill "$(cat "$fake/fake-asc.pid")" 2>/dev/null; rm -rf "$fake"' EXIT
# A copy again: push records the base it leaves App Store Connect at beside the catalog (.iapkit/base/), which a
# team commits; it lands in out/ instead of changing examples/.
rm -rf "$out/synced" && cp -R examples "$out/synced"
$iapkit asc plan "$out/synced/catalog.yaml" > "$out/asc-plan-before.txt"
tail -n 1 "$out/asc-plan-before.txt"
$iapkit asc push "$out/synced/catalog.yaml" --yes
$iapkit asc plan "$out/synced/catalog.yaml" --check
$iapkit asc prices "$out/synced/catalog.yaml" --format csv -o "$out/prices.csv"
mkdir -p "$out/pulled"
$iapkit asc pull --bundle-id com.example.fruitstand -o "$out/pulled/catalog.yaml"
$iapkit asc plan "$out/pulled/catalog.yaml" --check

step "outputs"
find "$out" -type f | sort | while read -r file; do printf '  %s (%s bytes)\n' "$file" "$(wc -c < "$file" | tr -d ' ')"; done
