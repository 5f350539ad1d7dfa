#!/usr/bin/env bash
# Where a clean release build's time goes, module by module.
#
#   scripts/dist/build-times.sh [--scratch-path DIR] [--keep] [-- SWIFT BUILD ARGS...]
#
# Builds `iapkit` in release mode from a clean build folder (default .build-times; its package checkouts are kept,
# its release products removed first unless --keep) with every Swift frontend and C compiler call wrapped so it logs
# its module, wall time and CPU time. Then prints one line per module, heaviest first: CPU seconds (user + system,
# which do not depend on what else the machine runs), wall seconds, the number of compiler calls, and the package
# the module comes from; then the totals, the share of the generated App Store Connect API code, and the link.
# The raw log is DIR/build-times/log.tsv.
set -euo pipefail
cd "$(dirname "$0")/../.."

scratch=.build-times
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --scratch-path) scratch=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --) shift; break ;;
    *) echo "build-times: unknown argument $1" >&2; exit 2 ;;
  esac
done

[ -f scripts/setup/pkg-config-env.sh ] && source scripts/setup/pkg-config-env.sh
[ -f scripts/setup/pkg-config-env.sh ] && source scripts/setup/pkg-config-env.sh

toolchain_bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
work=$scratch/build-times
mkdir -p "$work/bin"
work=$(cd "$work" && pwd)
log=$work/log.tsv
: > "$log"

# One wrapper for both compilers: runs the real tool, then appends a line
#   tool <TAB> module <TAB> source <TAB> start <TAB> end <TAB> user <TAB> system
# where module is the Swift module name or the C target's folder (NAME.build) and source the first input file.
write_wrapper() {
  local name=$1 real=$2
  cat > "$work/bin/$name" <<WRAP
#!/usr/bin/env bash
start=\$EPOCHREALTIME
"$real" "\$@"
status=\$?
end=\$EPOCHREALTIME
module="" source="" previous=""
for argument in "\$@"; do
  case "\$previous" in
    -module-name) module=\$argument ;;
    -o) [ -z "\$module" ] && [[ "\$argument" =~ /([^/]+)\.build/ ]] && module=\${BASH_REMATCH[1]} ;;
  esac
  case "\$argument" in
    *.swift|*.c|*.cc|*.cpp|*.S|*.m) [ -z "\$source" ] && source=\$argument ;;
  esac
  previous=\$argument
done
if [ -n "\$module" ] && [ -n "\$source" ]; then
  times > "$work/times.\$\$"   # not in \$(...): a subshell does not see this shell's children
  cpu=\$(tail -1 "$work/times.\$\$")
  rm -f "$work/times.\$\$"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "\$module" "\$source" "\$start" "\$end" "\$cpu" >> "$log"
fi
exit \$status
WRAP
  chmod +x "$work/bin/$name"
}
write_wrapper swift-frontend "$toolchain_bin/swift-frontend"
write_wrapper clang "$toolchain_bin/clang"

if [ "$keep" = 0 ]; then
  for products in "$scratch"/*-*-*/release; do [ -d "$products" ] && rm -rf "$products"; done
  rm -f "$scratch/release"
fi

echo "build-times: swift build -c release --product iapkit $* (scratch path $scratch)"
build_start=$EPOCHREALTIME
SWIFT_DRIVER_SWIFT_FRONTEND_EXEC=$work/bin/swift-frontend CC=$work/bin/clang \
  swift build -c release --product iapkit --scratch-path "$scratch" "$@" 2>&1 | tee "$work/build-output.txt" | grep -E "complete|error:" || true
build_end=$EPOCHREALTIME
grep -q "complete" "$work/build-output.txt" || { echo "build-times: the build failed (see $work/build-output.txt)" >&2; exit 1; }

python3 - "$log" "$build_start" "$build_end" <<'PY'
import collections, re, sys
log, build_start, build_end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])

def seconds(text):  # bash `times`: 1m2.345s
    minutes, secs = re.match(r"(\d+)m([\d.]+)s", text).groups()
    return int(minutes) * 60 + float(secs)

def package(source):
    if source.endswith("Package.swift"): return "(manifests)"
    match = re.search(r"/checkouts/([^/]+)/", source)
    return match.group(1) if match else "iapkit"

modules = collections.defaultdict(lambda: {"cpu": 0.0, "wall": 0.0, "calls": 0, "package": "", "first": None, "last": 0.0})
for line in open(log):
    tool, module, source, start, end, cpu = line.rstrip("\n").split("\t")
    user, system = cpu.split()
    if source.endswith("Package.swift"): module = "(package manifests)"
    entry = modules[module]
    entry["cpu"] += seconds(user) + seconds(system)
    entry["wall"] += float(end) - float(start)
    entry["calls"] += 1
    entry["package"] = package(source)
    entry["first"] = min(entry["first"] or float(start), float(start))
    entry["last"] = max(entry["last"], float(end))

total_cpu = sum(m["cpu"] for m in modules.values())
print("%-38s %9s %8s %6s  %s" % ("module", "cpu s", "wall s", "calls", "package"))
for name, m in sorted(modules.items(), key=lambda item: -item[1]["cpu"]):
    print("%-38s %9.1f %8.1f %6d  %s  (%4.1f%%)" % (name, m["cpu"], m["wall"], m["calls"], m["package"], 100 * m["cpu"] / total_cpu))
by_package = collections.Counter()
for m in modules.values(): by_package[m["package"]] += m["cpu"]
print()
print("by package (cpu s): " + ", ".join("%s %.0f" % item for item in by_package.most_common()))
last_compile = max(m["last"] for m in modules.values())
# Wall time each module spent compiling alone: the build's serial stretches, where a second core sat idle.
intervals = []
for line in open(log):
    tool, module, source, start, end, cpu = line.rstrip("\n").split("\t")
    intervals.append((float(start), float(end), module))
events = sorted([(s, 1, m) for s, e, m in intervals] + [(e, -1, m) for s, e, m in intervals])
running, alone, previous = collections.Counter(), collections.Counter(), None
for time, change, module in events:
    if previous is not None and len(running) == 1:
        alone[next(iter(running))] += time - previous
    previous = time
    running[module] += change
    if running[module] == 0: del running[module]
print("compiling alone (wall s): " + ", ".join("%s %.0f" % item for item in alone.most_common(5)))
api = modules.get("AppStoreConnectAPI")
ours = sum(m["cpu"] for m in modules.values() if m["package"] == "iapkit")
print("total: %.0f s CPU in %d compiler calls, %.0f s wall; link and the rest after the last compile: %.0f s"
      % (total_cpu, sum(m["calls"] for m in modules.values()), build_end - build_start, build_end - last_compile))
print("iapkit's own modules: %.0f s CPU (%.0f%%)" % (ours, 100 * ours / total_cpu))
if api:
    print("AppStoreConnectAPI (generated code): %.0f s CPU (%.0f%% of all, %.0f%% of iapkit's own), %.0f s wall"
          % (api["cpu"], 100 * api["cpu"] / total_cpu, 100 * api["cpu"] / ours, api["wall"]))
PY
