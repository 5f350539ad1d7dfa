#!/usr/bin/env bash
# The shell behind action.yml (and usable on its own, on any CI with bash and curl):
#
#   action.sh resolve   prints version=, platform=, dir= (to $GITHUB_OUTPUT when set) for the requested release
#   action.sh install   downloads iapkit-VERSION-PLATFORM.tar.gz and its .sha256, verifies, unpacks into dir
#   action.sh run       runs `iapkit $INPUT_COMMAND` in $INPUT_WORKING_DIRECTORY; for lint, GitHub annotations
#                       and an optional SARIF report; prints exit-code= (never fails itself, so a SARIF upload
#                       can follow; action.yml's last step exits with the code)
#
# Inputs come from the environment: INPUT_VERSION (`0.1.0`, `v0.1.0`, `latest` or empty: the action's own tag
# when it is a release tag, else the latest release), ACTION_REF, ACTION_REPOSITORY (owner/name that publishes
# the releases), GITHUB_TOKEN (for the API call behind `latest`), IAPKIT_DOWNLOAD_URL (a base URL instead of the
# release's, e.g. file:///path/to/dist for a test), IAPKIT_INSTALL_ROOT (default $RUNNER_TOOL_CACHE/iapkit or
# ~/.cache/iapkit), INPUT_COMMAND, INPUT_WORKING_DIRECTORY, INPUT_ANNOTATIONS (true/false), INPUT_SARIF (a path),
# INPUT_COMMENT (true: `asc plan` or `asc show` on a pull request posts its Markdown plan as one comment, updated on
# each run, through GITHUB_TOKEN, GITHUB_API_URL, GITHUB_REPOSITORY and the event in GITHUB_EVENT_PATH).
set -euo pipefail

output() {  # NAME VALUE: a step output, and a line on stdout
  printf '%s=%s\n' "$1" "$2"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; fi
}
fail() { echo "::error title=iapkit::$*" >&2; exit 1; }

platform() {
  local system arch
  system=$(uname -s); arch=$(uname -m)
  case "$system" in
    Linux)
      case "$arch" in
        x86_64|amd64) echo linux-x86_64 ;;
        aarch64|arm64) echo linux-aarch64 ;;
        *) fail "no iapkit release for Linux on $arch" ;;
      esac ;;
    Darwin) echo macos-universal ;;
    *) fail "no iapkit release for $system; use the container image or build from source" ;;
  esac
}

# Posts FILE (a Markdown plan) on the pull request of this run, or updates the comment an earlier run posted for the
# same working directory (found by a hidden marker).
post_comment() {
  local file=$1
  [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ] || { echo "::notice title=iapkit::not a pull request: no comment"; return 0; }
  local number
  number=$(python3 -c 'import json, sys; print((json.load(open(sys.argv[1])).get("pull_request") or {}).get("number") or "")' "$GITHUB_EVENT_PATH")
  [ -n "$number" ] || { echo "::notice title=iapkit::not a pull request: no comment"; return 0; }
  local api=${GITHUB_API_URL:-https://api.github.com} marker="<!-- iapkit plan: ${INPUT_WORKING_DIRECTORY:-.} -->"
  local auth=(-H "Authorization: Bearer ${GITHUB_TOKEN:-}" -H "Accept: application/vnd.github+json")
  local body existing
  body=$(MARKER="$marker" python3 -c 'import json, os, sys; print(json.dumps({"body": os.environ["MARKER"] + "\n" + open(sys.argv[1]).read()}))' "$file")
  existing=$(curl -fsSL "${auth[@]}" "$api/repos/$GITHUB_REPOSITORY/issues/$number/comments?per_page=100" \
    | MARKER="$marker" python3 -c 'import json, os, sys; print(next((str(c["id"]) for c in json.load(sys.stdin) if c.get("body", "").startswith(os.environ["MARKER"])), ""))')
  if [ -n "$existing" ]; then
    curl -fsSL -X PATCH "${auth[@]}" -d "$body" "$api/repos/$GITHUB_REPOSITORY/issues/comments/$existing" >/dev/null
  else
    curl -fsSL -X POST "${auth[@]}" -d "$body" "$api/repos/$GITHUB_REPOSITORY/issues/$number/comments" >/dev/null
  fi
}

repository() { echo "${ACTION_REPOSITORY:-${IAPKIT_REPOSITORY:-iapkit/iapkit}}"; }

resolve_version() {
  local requested=${INPUT_VERSION:-}
  if [ -z "$requested" ]; then
    case "${ACTION_REF:-}" in
      v[0-9]*.*) requested=${ACTION_REF} ;;
      *) requested=latest ;;
    esac
  fi
  if [ "$requested" = latest ]; then
    local api=${GITHUB_API_URL:-https://api.github.com} auth=()
    [ -n "${GITHUB_TOKEN:-}" ] && auth=(-H "Authorization: Bearer $GITHUB_TOKEN")
    requested=$(curl -fsSL "${auth[@]}" -H "Accept: application/vnd.github+json" \
      "$api/repos/$(repository)/releases/latest" | sed -n 's/^ *"tag_name": *"\([^"]*\)".*/\1/p' | head -1)
    [ -n "$requested" ] || fail "cannot find the latest iapkit release of $(repository)"
  fi
  requested=${requested#v}
  [[ "$requested" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] || fail "not an iapkit version: $requested"
  echo "$requested"
}

install_root() { echo "${IAPKIT_INSTALL_ROOT:-${RUNNER_TOOL_CACHE:-$HOME/.cache}/iapkit}"; }

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

case "${1:-}" in
resolve)
  version=$(resolve_version)
  plat=$(platform)
  output version "$version"
  output platform "$plat"
  output dir "$(install_root)/$version/$plat"
  ;;

install)
  version=$(resolve_version)
  plat=$(platform)
  dir=$(install_root)/$version/$plat
  name=iapkit-$version-$plat
  if [ ! -x "$dir/bin/iapkit" ]; then
    base=${IAPKIT_DOWNLOAD_URL:-https://github.com/$(repository)/releases/download/v$version}
    temp=$(mktemp -d)
    trap 'rm -rf "$temp"' EXIT
    echo "iapkit: downloading $base/$name.tar.gz"
    curl -fsSL --retry 3 -o "$temp/$name.tar.gz" "$base/$name.tar.gz" || fail "cannot download $base/$name.tar.gz"
    curl -fsSL --retry 3 -o "$temp/$name.tar.gz.sha256" "$base/$name.tar.gz.sha256" || fail "cannot download the checksum of $name.tar.gz"
    expected=$(cut -d' ' -f1 < "$temp/$name.tar.gz.sha256")
    actual=$(sha256_of "$temp/$name.tar.gz")
    [ "$expected" = "$actual" ] || fail "checksum mismatch for $name.tar.gz: expected $expected, got $actual"
    mkdir -p "$temp/unpack"
    tar -xzf "$temp/$name.tar.gz" -C "$temp/unpack"
    [ -x "$temp/unpack/$name/bin/iapkit" ] || fail "$name.tar.gz holds no $name/bin/iapkit"
    rm -rf "$dir" && mkdir -p "$(dirname "$dir")"
    mv "$temp/unpack/$name" "$dir"
  fi
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir/bin" >> "$GITHUB_PATH"; fi
  output path "$dir/bin"
  "$dir/bin/iapkit" --version >/dev/null || fail "the installed iapkit does not run on this runner"
  echo "iapkit: $version ($plat) in $dir"
  ;;

run)
  iapkit=${IAPKIT_BIN:-iapkit}
  eval "set -- ${INPUT_COMMAND:-}"
  cd "${INPUT_WORKING_DIRECTORY:-.}"
  if [ $# -eq 0 ]; then output exit-code 0; exit 0; fi
  sarif=""
  if [ "$1" = lint ]; then
    explicit_format=0
    for argument in "$@"; do case "$argument" in --format|--format=*) explicit_format=1 ;; esac; done
    if [ -n "${INPUT_SARIF:-}" ]; then
      # The report for code scanning: the same lint, written as SARIF; its findings are the main run's.
      mkdir -p "$(dirname "$INPUT_SARIF")"
      "$iapkit" "$@" --format sarif -o "$INPUT_SARIF" >/dev/null 2>&1 || true
      if [ -f "$INPUT_SARIF" ]; then sarif=$(cd "$(dirname "$INPUT_SARIF")" && pwd)/$(basename "$INPUT_SARIF"); else echo "::warning title=iapkit::no SARIF report was written"; fi
    fi
    if [ "${INPUT_ANNOTATIONS:-true}" = true ] && [ "$explicit_format" = 0 ]; then
      set -- "$@" --format github
    fi
  fi
  comment=""
  if [ "${INPUT_COMMENT:-false}" = true ] && [ "$1" = asc ] && { [ "${2:-}" = plan ] || [ "${2:-}" = show ]; }; then
    comment=$(mktemp)
    explicit_format=0
    for argument in "$@"; do case "$argument" in --format|--format=*) explicit_format=1 ;; esac; done
    [ "$explicit_format" = 0 ] && set -- "$@" --format markdown
  fi
  echo "+ iapkit $*"
  set +e
  if [ -n "$comment" ]; then
    "$iapkit" "$@" > "$comment"
    code=$?
    cat "$comment"
  else
    "$iapkit" "$@"
    code=$?
  fi
  set -e
  if [ -n "$comment" ]; then
    post_comment "$comment" || echo "::warning title=iapkit::the plan could not be posted on the pull request"
    rm -f "$comment"
  fi
  output sarif "$sarif"
  output exit-code "$code"
  ;;

*)
  echo "usage: action.sh resolve|install|run" >&2
  exit 2
  ;;
esac
