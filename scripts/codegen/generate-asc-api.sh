#!/usr/bin/env bash
# Regenerates Sources/AppStoreConnectAPI/Generated/ from Apple's App Store Connect API OpenAPI document (4.4.1),
# with API 4.5's subscription changes applied from their overlay beside it.
#
#   scripts/codegen/generate-asc-api.sh           write the generated Swift files
#   scripts/codegen/generate-asc-api.sh --check   generate into a temporary folder and fail if the committed files differ
#
# The document is read from ${IAPKIT_REFERENCE:-../shared}/reference/app-store-connect-openapi.json, the overlay from
# app-store-connect-4.5-subscriptions.json beside it; neither is part of the repository. The generator is built once,
# in its own scratch folder (.build-openapi-generator/), so the package itself never needs it: the generated files
# are committed and a clone builds without the document.
set -euo pipefail

GENERATOR_VERSION=1.14.3
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

check=0
case "${1:-}" in
    "") ;;
    --check) check=1 ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

reference=${IAPKIT_REFERENCE:-../shared}/reference
document=$reference/app-store-connect-openapi.json
config=Sources/AppStoreConnectAPI/openapi-generator-config.yaml
parameters=scripts/codegen/asc-api-query-parameters.yaml
output=Sources/AppStoreConnectAPI/Generated
scratch=$root/.build-openapi-generator

# API 4.5 changed subscriptions (multiseat); its changes are an overlay on the 4.4.1 document, applied first.
overlay=$reference/app-store-connect-4.5-subscriptions.json
for file in "$document" "$overlay"; do
    if [[ ! -f $file ]]; then
        echo "error: $file not found (set IAPKIT_REFERENCE to the folder that holds reference/)" >&2
        exit 2
    fi
done

# A throwaway package whose only job is to build the generator's command-line tool at a pinned version.
mkdir -p "$scratch/tool"
cat > "$scratch/tool/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "openapi-generator-tool",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "$GENERATOR_VERSION")],
    targets: []
)
SWIFT
echo "building swift-openapi-generator $GENERATOR_VERSION in $scratch" >&2
swift build --package-path "$scratch/tool" --scratch-path "$scratch/build" \
    --product swift-openapi-generator >&2
generator=$(swift build --package-path "$scratch/tool" --scratch-path "$scratch/build" --show-bin-path)/swift-openapi-generator

# Pre-processing: prune Apple's 3.4 MB document to the configured operations, of their optional query parameters to
# those $parameters lists (and of an answer's `included` to what the kept `include` can bring), and to the components
# all that still reaches. The generator's filter alone would keep every parameter and `included` resource, and parsing
# the whole document takes its debug build minutes.
overlaid=$scratch/app-store-connect-openapi.overlaid.json
python3 scripts/codegen/apply-overlay.py "$document" "$overlay" "$overlaid"
document=$overlaid
pruned=$scratch/app-store-connect-openapi.pruned.json
python3 scripts/codegen/prune-openapi.py "$config" "$parameters" "$document" "$pruned"

destination=$output
if (( check )); then
    destination=$(mktemp -d)
    trap 'rm -rf "$destination"' EXIT
fi
mkdir -p "$destination"
rm -f "$destination"/*.swift
"$generator" generate --config "$config" --output-directory "$destination" "$pruned" >/dev/null
# Beside the client: the attributes and relationships the document gives each resource type, so the client can name
# what a newer API version sends.
python3 scripts/codegen/document-fields.py "$document" "$pruned" "$destination/ASCDocumentFields.swift"

if (( check )); then
    if diff -ru "$output" "$destination"; then
        echo "generated files are up to date" >&2
    else
        echo "error: the generated files differ; run scripts/codegen/generate-asc-api.sh" >&2
        exit 1
    fi
else
    echo "wrote $(ls "$destination"/*.swift | wc -l) files to $destination ($(cat "$destination"/*.swift | wc -l) lines)" >&2
fi
