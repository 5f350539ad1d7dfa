#!/usr/bin/env bash
# Benchmarks iapkit against peers run in the same go and prints ratios (lower is better).
#   lint:    10,000 and 20,000 products (3 localizations each) against merely parsing the same files
#   package: a mixed corpus (media, text, many small files) against `zip -r -6`, `cat` and `sha256sum`;
#            already-compressed media against `sha256sum`; peak resident memory of each run.
# BENCH_MB sets the corpus size (default 1024). Needs a release build: `make bench` does it.
set -euo pipefail
cd "$(dirname "$0")/.."
iapkit=$PWD/.build/release/iapkit
work=${BENCH_DIR:-$PWD/.bench}
size_mb=${BENCH_MB:-1024}
mkdir -p "$work"

seconds() { # runs a command, prints its wall seconds; its peak RSS (KB) goes to $work/rss
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; return 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
best() { # best of 3 runs
  local best=999999 t
  for _ in 1 2 3; do t=$(seconds "$@"); best=$(echo "if ($t < $best) $t else $best" | bc -l); done
  printf '%.3f' "$best"
}
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
package_best() { # best of 3 `iapkit package` runs, each into a new folder deleted outside the timing
  local best=999999 t run
  for run in 1 2 3; do
    t=$(seconds "$iapkit" package "$@" -o "$out/run$run"); rm -rf "$out/run$run"
    best=$(echo "if ($t < $best) $t else $best" | bc -l)
  done
  printf '%.3f' "$best"
}

echo "== lint"
cp examples/review/banana.png "$work/shot.png"
for n in 10000 20000; do [ -f "$work/c$n.yaml" ] || python3 scripts/generate-catalog.py "$n" "$work/c$n.yaml"; done
lint10=$(best "$iapkit" lint catalog "$work/c10000.yaml")
parse10=$(best "$iapkit" lint catalog "$work/c10000.yaml" --load-only)
lint20=$(best "$iapkit" lint catalog "$work/c20000.yaml")
echo "lint 10,000 products: ${lint10}s (target < 1 s); parse only: ${parse10}s"
echo "lint 20,000 products: ${lint20}s; 20k/10k = $(ratio "$lint20" "$lint10") (target <= 2.2)"

exp10=$(best "$iapkit" export storekit "$work/c10000.yaml" -o "$work/c10000.storekit")
imp10=$(best "$iapkit" import storekit "$work/c10000.storekit" --bundle-id com.example.big -o "$work/c10000-imported.yaml" --force)
echo "export storekit, 10,000 products: ${exp10}s (target < 1 s); import storekit: ${imp10}s (target < 1 s)"

echo "== asc plan (requests, not seconds)"
[ -f "$work/c1000.yaml" ] || python3 scripts/generate-catalog.py 1000 "$work/c1000.yaml"
python3 scripts/bench-asc.py "$iapkit" "$work/c1000.yaml"

echo "== package"
corpus=$work/corpus/com.example.bench
media=$work/media/com.example.media
if [ ! -f "$work/corpus.done-$size_mb" ]; then
  rm -rf "$work/corpus" "$work/media"
  "$iapkit" new-content com.example.bench -o "$work/corpus" >/dev/null
  "$iapkit" new-content com.example.media -o "$work/media" >/dev/null
  python3 - "$corpus/Contents" "$media/Contents" "$size_mb" <<'PY'
import os, random, sys
root, media_root, total = sys.argv[1], sys.argv[2], int(sys.argv[3]) << 20
random.seed(1)
# ~65% already-compressed media (random bytes under media names), ~30% text, the rest many small files.
media, text = int(total * 0.65), int(total * 0.30)
os.makedirs(root + "/video", exist_ok=True); os.makedirs(root + "/text", exist_ok=True); os.makedirs(root + "/small", exist_ok=True)
names = ["clip.mp4", "song.m4a", "photo.png", "scan.jpg"]
i = 0
while media > 0:
    n = min(media, 64 << 20)
    data = os.urandom(n)
    open(f"{root}/video/{i:03d}-{names[i % 4]}", "wb").write(data)
    open(f"{media_root}/{i:03d}-{names[i % 4]}", "wb").write(data)
    media -= n; i += 1
words = open("/usr/share/dict/words").read().split() if os.path.exists("/usr/share/dict/words") else \
    ["fruit", "banana", "kiwi", "level", "pack", "stand", "orchard", "ripe", "mango", "apple", "{", "}", "\"id\":", "42"]
j = 0
while text > 0:
    n = min(text, 16 << 20)
    chunk = " ".join(random.choice(words) for _ in range(n // 6))[:n]
    open(f"{root}/text/part{j:03d}.json", "w").write(chunk); text -= n; j += 1
for k in range(3000):
    open(f"{root}/small/f{k:04d}.txt", "w").write(f"small file {k}\n" * random.randint(1, 200))
PY
  touch "$work/corpus.done-$size_mb"
fi
find "$corpus" -type f -exec cat {} + >/dev/null   # warm the page cache
bytes=$(du -sb "$corpus" | cut -f1)
echo "mixed corpus: $((bytes / 1048576)) MiB in $(find "$corpus" -type f | wc -l) files"

out=$work/out
rm -rf "$out"
mkdir -p "$out"
t_pkg=$(package_best "$corpus"); rss_pkg=$(cat "$work/rss")
t_zip=$(best bash -c "cd '$work/corpus' && rm -f '$work/peer.zip' && zip -qr -6 '$work/peer.zip' com.example.bench")
# Through a pipe: GNU cat writing straight to /dev/null may skip the copy altogether.
t_cat=$(best bash -c "find '$corpus' -type f -print0 | xargs -0 cat | wc -c > /dev/null")
t_sha=$(best bash -c "find '$corpus' -type f -print0 | xargs -0 sha256sum > /dev/null")
t_pzip=$(package_best "$corpus" --format zip)
echo "iapkit package (pkg): ${t_pkg}s, peak ${rss_pkg} KB (target < 65536 KB)"
echo "zip -r -6:            ${t_zip}s   -> iapkit/zip = $(ratio "$t_pkg" "$t_zip") (target <= 0.50)"
echo "cat | wc -c:          ${t_cat}s   -> iapkit/cat = $(ratio "$t_pkg" "$t_cat")"
echo "sha256sum:            ${t_sha}s   -> iapkit/sha256sum = $(ratio "$t_pkg" "$t_sha")"
echo "iapkit package --format zip: ${t_pzip}s -> /zip -r -6 = $(ratio "$t_pzip" "$t_zip")"

find "$media" -type f -exec cat {} + >/dev/null
t_mpkg=$(package_best "$media"); rss_media=$(cat "$work/rss")
t_msha=$(best bash -c "find '$media' -type f -print0 | xargs -0 sha256sum > /dev/null")
echo "media only ($(($(du -sb "$media" | cut -f1) / 1048576)) MiB): iapkit ${t_mpkg}s, sha256sum ${t_msha}s -> $(ratio "$t_mpkg" "$t_msha") (target <= 1.50), peak ${rss_media} KB"
