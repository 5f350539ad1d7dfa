#!/usr/bin/env bash
# Installs what iapkit needs to build and test, and nothing that is already there.
# Debian/Ubuntu: apt packages (as root, or through sudo). macOS: Homebrew packages.
set -euo pipefail

need_tests=${IAPKIT_SETUP_TESTS:-0}
need_bench=0
need_dist=0
[ "${1:-}" = "--tests" ] && need_tests=1
[ "${1:-}" = "--bench" ] && { need_bench=1; need_tests=1; }
# `make dist` links the C libraries in from Debian's static archives; libarchive's zip writer needs nettle's.
[ "${1:-}" = "--dist" ] && need_dist=1

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: Swift 6 is not installed. Install a Swift 6 toolchain (swift.org/install), then run this again." >&2
  exit 1
fi

case "$(uname -s)" in
Linux)
  packages=(pkg-config libarchive-dev libxml2-dev zlib1g-dev libyaml-dev libyajl-dev python3)
  if [ "$need_tests" = 1 ]; then
    packages+=(python3 zip unzip libarchive-tools p7zip-full cpio libxml2-utils patch diffutils)
  fi
  if [ "$need_bench" = 1 ]; then
    packages+=(python3 zip bc gcc)
  fi
  if [ "$need_dist" = 1 ]; then
    packages+=(nettle-dev binutils)
  fi
  missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  ;;
Darwin)
  command -v brew >/dev/null 2>&1 || { echo "setup: Homebrew is needed on macOS (brew.sh)" >&2; exit 1; }
  for package in pkg-config libarchive libxml2 libyaml yajl; do
    brew list --versions "$package" >/dev/null 2>&1 || brew install "$package"
  done
  [ "$need_tests" = 1 ] && { brew list --versions sevenzip >/dev/null 2>&1 || brew install sevenzip; }
  ;;
esac

# jsonschema and PyYAML check test output, Markdown reads plans in Markdown; cryptography verifies ES256 tokens in the
# fake App Store Connect, which `make run` also starts to show `iapkit asc` without an Apple account.
if ! python3 -c "import jsonschema, yaml, cryptography, markdown" >/dev/null 2>&1; then
  echo "setup: installing the Python modules jsonschema, PyYAML, cryptography and Markdown (test checkers, fake App Store Connect)"
  if [ "$(uname -s)" = Linux ] && command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-jsonschema python3-yaml python3-cryptography python3-markdown >/dev/null || true
  fi
  python3 -c "import jsonschema, yaml, cryptography, markdown" >/dev/null 2>&1 || python3 -m pip install --quiet jsonschema pyyaml cryptography markdown
fi
echo "setup: all dependencies present"
