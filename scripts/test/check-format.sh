#!/usr/bin/env bash
# Fails when a Swift file is not as swift-format writes it with the repository's .swift-format (the generated App
# Store Connect client aside). Formats a copy, so nothing in the clone changes; `make format` applies it.
#
#   scripts/test/check-format.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

if command -v swift-format >/dev/null 2>&1; then
    formatter=(swift-format)
elif swift format --version >/dev/null 2>&1; then
    formatter=(swift format)
else
    echo "check-format: no swift-format (it ships with Swift 6 toolchains: swift-format, or swift format)" >&2
    exit 2
fi

copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
files=$(git ls-files '*.swift' | grep -v '^Sources/AppStoreConnectAPI/Generated/' || true)
[ -n "$files" ] || files=$(find Sources Tests Plugins -name '*.swift' -not -path 'Sources/AppStoreConnectAPI/Generated/*')
printf '%s\n' "$files" | while read -r file; do
    mkdir -p "$copy/$(dirname "$file")"
    cp "$file" "$copy/$file"
done
cp .swift-format "$copy/.swift-format"
(cd "$copy" && "${formatter[@]}" format --in-place --parallel --recursive --configuration .swift-format .)
differing=$(printf '%s\n' "$files" | while read -r file; do cmp -s "$file" "$copy/$file" || echo "$file"; done)
if [ -n "$differing" ]; then
    count=$(printf '%s\n' "$differing" | wc -l)
    echo "check-format: $count Swift file(s) differ from swift-format's layout (.swift-format); run \`make format\`:" >&2
    printf '  %s\n' $differing | head -20 >&2
    first=$(printf '%s\n' "$differing" | head -1)
    diff -u "$first" "$copy/$first" | head -30 >&2 || true
    exit 1
fi
echo "check-format: every Swift file is as swift-format writes it"
