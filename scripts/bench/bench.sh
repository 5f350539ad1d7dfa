#!/usr/bin/env bash
# Benchmarks iapkit against floors run in the same go and prints each ratio with its target and PASS or FAIL.
#   lint, export storekit: 10,000 and 20,000 products (3 localizations each) against libyaml turning the same
#            catalog into events (a tiny C program built here); import storekit against Python's json.load of the
#            same .storekit file; peak resident memory of each. Lint of 10,000 products in wall seconds too (lint
#            reads a large catalog on several threads), and of 100,000 products in wall seconds, the median of 5.
#            export storekit over the file it wrote (as teams keep it beside the app), unchanged and with one price
#            changed, against writing a new file (--fresh), in time and in peak memory.
#   asc plan: the App Store Connect requests a plan of 1,000 products makes (scripts/bench/bench-asc.py), not seconds;
#            and with 10,000 products (scripts/bench/bench-asc-scale.py): a pull request's plan of 10 changed products,
#            the full plan's estimate against what it sends, a plan the hour's budget cannot pay for.
#            A studio's catalog of 50 to 500 products, each priced by hand in 15 territories with a scheduled price
#            (scripts/bench/bench-asc-studio.py; BENCH_ASC_SIZES sets the sizes): the push into an empty app and the
#            plan of the unchanged catalog, each one's estimate against what it sent, its wall time, and the plan's
#            requests per product.
#   package: a mixed corpus (media, text, many small files) against `zip -r -6`, `cat` and `sha256sum`;
#            already-compressed media against `sha256sum`; peak resident memory of each run.
# Catalog ratios are medians of BENCH_RUNS (default 7; lint 15) pairs run one after the other, the floor or peer
# then iapkit (scripts/bench/paired.py), in CPU seconds (user + system) unless marked wall; the seconds printed are
# each one's best. BENCH_MB sets the corpus size (default 1024);
# BENCH_PACKAGE=0 skips packaging. It measures the binary users run: the one in the release archive (`make dist`,
# which `make bench` runs first: the Swift runtime linked in, stripped), unpacked here; BENCH_IAPKIT measures another.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${BENCH_DIR:-$PWD/.bench}
if [ -n "${BENCH_IAPKIT:-}" ]; then
  iapkit=$BENCH_IAPKIT
else
  archive=$(ls -t dist/iapkit-*-linux-*.tar.gz dist/iapkit-*-macos-*.tar.gz 2>/dev/null | head -1 || true)
  [ -n "$archive" ] || { echo "bench: no release archive in dist/; run \`make dist\` (\`make bench\` does)" >&2; exit 2; }
  rm -rf "$work/dist" && mkdir -p "$work/dist" && tar -xzf "$archive" -C "$work/dist"
  iapkit=$(ls "$work"/dist/*/bin/iapkit)
  echo "== measuring $(basename "$archive")'s bin/iapkit"
fi
size_mb=${BENCH_MB:-1024}
runs=${BENCH_RUNS:-7}
mkdir -p "$work"

seconds() { # runs a command, prints its wall seconds; its peak RSS (KB) goes to $work/rss, its CPU seconds to $work/cpu
  python3 scripts/bench/measure.py "$work" "$@" || { cat "$work/stderr" >&2; return 1; }
}
best() { # best of 3 runs, wall seconds
  local best=999999 t
  for _ in 1 2 3; do t=$(seconds "$@"); best=$(echo "if ($t < $best) $t else $best" | bc -l); done
  printf '%.3f' "$best"
}
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
failed=0
check() { # label value target: PASS when value <= target
  local verdict=PASS
  if [ "$(echo "$2 > $3" | bc -l)" = 1 ]; then verdict=FAIL; failed=1; fi
  printf '  %-42s %8s  (target <= %s)  %s\n' "$1" "$2" "$3" "$verdict"
}
package_best() { # best of 3 `iapkit package` runs, each into a new folder deleted outside the timing
  local best=999999 t run
  for run in 1 2 3; do
    t=$(seconds "$iapkit" package "$@" -o "$out/run$run"); rm -rf "$out/run$run"
    best=$(echo "if ($t < $best) $t else $best" | bc -l)
  done
  printf '%.3f' "$best"
}

echo "== lint, export, import (catalogs of 10,000 and 20,000 products, 3 localizations each)"
cp examples/review/banana.png "$work/shot.png"
for n in 10000 20000; do [ -f "$work/c$n.yaml" ] || python3 scripts/bench/generate-catalog.py "$n" "$work/c$n.yaml"; done
# The floors: libyaml turning the catalog into events and nothing else, and Python's json.load.
cat > "$work/yaml-events.c" <<'C'
#include <stdio.h>
#include <yaml.h>
int main(int argc, char **argv) {
    FILE *file = fopen(argv[1], "rb");
    if (!file) return 2;
    yaml_parser_t parser;
    yaml_event_t event;
    long events = 0;
    int done = 0;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, file);
    while (!done) {
        if (!yaml_parser_parse(&parser, &event)) return 1;
        done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        events++;
    }
    yaml_parser_delete(&parser);
    printf("%ld events\n", events);
    return 0;
}
C
"${CC:-cc}" -O2 -o "$work/yaml-events" "$work/yaml-events.c" $(pkg-config --cflags --libs yaml-0.1)

# Each ratio is the median of pairs run one after the other (the floor or peer, then iapkit): on a shared machine
# whose speed drifts, two runs seconds apart compare where the best of each, taken minutes apart, does not.
paired() { # RUNS FLOOR SUBJECT [BEFORE]: sets cpu_ratio wall_ratio floor_cpu subject_cpu floor_rss subject_rss
  read -r cpu_ratio wall_ratio floor_cpu subject_cpu floor_rss subject_rss \
    < <(python3 scripts/bench/paired.py "$@") || { echo "bench: $2 / $3 failed" >&2; exit 1; }
}
two() { printf '%.2f' "$1"; }
yaml_events=$work/yaml-events
lint="$iapkit lint catalog"
# 15 pairs: lint's wall time against the floor's is the goal (lint reads a large catalog on several threads).
paired 15 "$yaml_events $work/c10000.yaml" "$lint $work/c10000.yaml"
floor10=$floor_cpu; lint10=$subject_cpu; rss_lint=$subject_rss
lint_cpu_ratio=$cpu_ratio; lint_wall_ratio=$wall_ratio
# Twice the products: lint's growth against libyaml's own over the same two files (the larger file is a little more
# than twice the text), so anything worse than linear shows.
paired "$runs" "$lint $work/c10000.yaml" "$lint $work/c20000.yaml"
lint20=$subject_cpu; lint_scale=$cpu_ratio
paired "$runs" "$yaml_events $work/c10000.yaml" "$yaml_events $work/c20000.yaml"
floor_scale=$cpu_ratio
# --fresh: each run writes the file anew; later runs would otherwise update the first one's output.
fresh="$iapkit export storekit $work/c10000.yaml -o $work/c10000.storekit --fresh"
paired "$runs" "$yaml_events $work/c10000.yaml" "$fresh"
exp10=$subject_cpu; rss_exp=$subject_rss; export_ratio=$cpu_ratio
# Over the file it wrote, as teams run it: the catalog unchanged (the file is left as it is), then with one price
# changed (each run updates a copy of the file made outside the timing).
cp "$work/c10000.storekit" "$work/kept.storekit"
paired "$runs" "$fresh" "$iapkit export storekit $work/c10000.yaml -o $work/kept.storekit"
over10=$subject_cpu; rss_over=$subject_rss; over_ratio=$cpu_ratio; over_rss_ratio=$(echo "$subject_rss / $floor_rss" | bc -l)
sed '0,/price: 0.99/s//price: 1.49/' "$work/c10000.yaml" > "$work/c10000-changed.yaml"
paired "$runs" "$fresh" "$iapkit export storekit $work/c10000-changed.yaml -o $work/kept.storekit" \
  "cp $work/c10000.storekit $work/kept.storekit"
changed10=$subject_cpu; rss_changed=$subject_rss; changed_ratio=$cpu_ratio
changed_rss_ratio=$(echo "$subject_rss / $floor_rss" | bc -l)
paired "$runs" "python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' $work/c10000.storekit" \
  "$iapkit import storekit $work/c10000.storekit --bundle-id com.example.big -o $work/c10000-imported.yaml --force"
json10=$floor_cpu; imp10=$subject_cpu; rss_imp=$subject_rss; import_ratio=$cpu_ratio; import_wall_ratio=$wall_ratio
echo "CPU seconds, best of each; ratios are medians of paired runs ($runs pairs, lint against libyaml 15)."
echo "libyaml events, 10,000 products: ${floor10}s; python3 json.load of the .storekit: ${json10}s"
echo "lint 10,000 products: ${lint10}s, peak ${rss_lint} KB; 20,000 products: ${lint20}s"
echo "export storekit 10,000: new file ${exp10}s, peak ${rss_exp} KB; over the file it wrote ${over10}s, peak ${rss_over} KB;"
echo "  over it with one price changed ${changed10}s, peak ${rss_changed} KB"
echo "import storekit 10,000: ${imp10}s, peak ${rss_imp} KB (wall $(two "$import_wall_ratio") x json.load)"
check "lint 10k / libyaml events (wall)" "$(two "$lint_wall_ratio")" 1.5
check "lint 10k / libyaml events (CPU)" "$(two "$lint_cpu_ratio")" 1.5
echo "20,000 products against 10,000: lint $(two "$lint_scale") x, libyaml events $(two "$floor_scale") x"
check "lint's growth / libyaml's growth" "$(ratio "$lint_scale" "$floor_scale")" 1.15
check "lint peak RSS (MB)" "$(ratio "$rss_lint" 1024)" 64
check "export storekit 10k / libyaml events" "$(two "$export_ratio")" 2.5
check "export peak RSS (MB)" "$(ratio "$rss_exp" 1024)" 64
check "export over its file / new file" "$(two "$over_ratio")" 1.25
check "export over its file, memory / new file" "$(two "$over_rss_ratio")" 1.5
check "export over it, a price changed / new" "$(two "$changed_ratio")" 1.25
check "  memory / new file" "$(two "$changed_rss_ratio")" 1.5
check "import storekit 10k / json.load" "$(two "$import_ratio")" 1.3
check "import storekit 10k / json.load (wall)" "$(two "$import_wall_ratio")" 1.3
check "import peak RSS (MB)" "$(ratio "$rss_imp" 1024)" 96

median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
echo "== lint of 100,000 products (wall seconds, median of 5 paired runs)"
[ -f "$work/c100000.yaml" ] || python3 scripts/bench/generate-catalog.py 100000 "$work/c100000.yaml"
floors=(); lints=(); pairs=(); rss_lint100=0
for _ in 1 2 3 4 5; do # each pair: the floor, then lint, one after the other
  f=$(seconds "$work/yaml-events" "$work/c100000.yaml")
  l=$(seconds "$iapkit" lint catalog "$work/c100000.yaml")
  rss=$(cat "$work/rss"); [ "$rss" -gt "$rss_lint100" ] && rss_lint100=$rss
  floors+=("$f"); lints+=("$l"); pairs+=("$(echo "$l / $f" | bc -l)")
done
echo "libyaml events: $(printf '%.3f' "$(median "${floors[@]}")")s; lint: $(printf '%.3f' "$(median "${lints[@]}")")s, peak ${rss_lint100} KB"
check "lint 100k / libyaml events (wall)" "$(printf '%.2f' "$(median "${pairs[@]}")")" 2.5

echo "== asc plan (requests, not seconds)"
[ -f "$work/c1000.yaml" ] || python3 scripts/bench/generate-catalog.py 1000 "$work/c1000.yaml"
python3 scripts/bench/bench-asc.py "$iapkit" "$work/c1000.yaml" || failed=1
echo "== asc plan in proportion to the change (10,000 products)"
python3 scripts/bench/bench-asc-scale.py "$iapkit" "$work/c10000.yaml" || failed=1
echo "== asc push and plan of a studio's catalog (15 hand-set territories and a scheduled price a product)"
python3 scripts/bench/bench-asc-studio.py "$iapkit" "$work" || failed=1

[ "${BENCH_PACKAGE:-1}" = 0 ] && exit "$failed"

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
echo "iapkit package (pkg): ${t_pkg}s, peak ${rss_pkg} KB"
echo "zip -r -6:            ${t_zip}s   -> iapkit/zip = $(ratio "$t_pkg" "$t_zip")"
echo "cat | wc -c:          ${t_cat}s   -> iapkit/cat = $(ratio "$t_pkg" "$t_cat")"
echo "sha256sum:            ${t_sha}s   -> iapkit/sha256sum = $(ratio "$t_pkg" "$t_sha")"
echo "iapkit package --format zip: ${t_pzip}s -> /zip -r -6 = $(ratio "$t_pzip" "$t_zip")"

find "$media" -type f -exec cat {} + >/dev/null
t_mpkg=$(package_best "$media"); rss_media=$(cat "$work/rss")
t_msha=$(best bash -c "find '$media' -type f -print0 | xargs -0 sha256sum > /dev/null")
echo "media only ($(($(du -sb "$media" | cut -f1) / 1048576)) MiB): iapkit ${t_mpkg}s, sha256sum ${t_msha}s, peak ${rss_media} KB"
check "package peak RSS (MB)" "$(ratio "$rss_pkg" 1024)" 64
check "package / zip -r -6" "$(ratio "$t_pkg" "$t_zip")" 0.50
check "package media only / sha256sum" "$(ratio "$t_mpkg" "$t_msha")" 1.50
exit "$failed"
