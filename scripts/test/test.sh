#!/usr/bin/env bash
# Runs the whole test suite (already built with `swift build --build-tests`), keeps its output in
# .build/test-output.txt, says why any tests were skipped, and ends with one line counting the core and conformance tests.
# The conformance tests read third-party references from IAPKIT_REFERENCE (default: `shared` beside the repository).
# Fails when the reference folder is present but no conformance test ran.
set -uo pipefail
cd "$(dirname "$0")/../.."
# Swift Testing records a backtrace of every Swift error thrown in the test process unless told not to; the in-process
# reads of App Store Connect throw and catch many while decoding, which made the round trip three times slower. A
# failing expectation still shows where it failed.
export SWT_SWIFT_ERROR_BACKTRACING_ENABLED=${SWT_SWIFT_ERROR_BACKTRACING_ENABLED:-0}
results=.build/test-results
mkdir -p "$results"
rm -f "$results"/xunit*.xml
swift test --skip-build --xunit-output "$results/xunit.xml" "$@" 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}

reference=${IAPKIT_REFERENCE:-}
[ -n "$reference" ] || reference=$(dirname "$PWD")/shared
python3 - "$results/xunit-swift-testing.xml" "$reference" "$results/summary.json" <<'PY' || status=1
import collections, json, os, sys
import xml.etree.ElementTree as ET

path, reference, summary_path = sys.argv[1:4]
present = os.path.isdir(reference)
counts = {"core": collections.Counter(), "conformance": collections.Counter()}
reasons = collections.Counter()
if os.path.exists(path):
    for case in ET.parse(path).getroot().iter("testcase"):
        suite = "conformance" if "Conformance" in case.get("classname", "") else "core"
        if case.find("skipped") is not None:
            counts[suite]["skipped"] += 1
            reasons[(case.find("skipped").text or "no reason given").strip()] += 1
        elif case.find("failure") is not None or case.find("error") is not None:
            counts[suite]["failed"] += 1
        else:
            counts[suite]["passed"] += 1
core, conformance = counts["core"], counts["conformance"]
def describe(c): return "%d passed, %d failed, %d skipped" % (c["passed"], c["failed"], c["skipped"])
for reason, number in reasons.items():
    print("skipped %d: %s" % (number, reason))
json.dump({"referencePresent": present, "reference": reference, "core": core, "conformance": conformance},
          open(summary_path, "w"), indent=2)
failed = not os.path.exists(path) or (present and conformance["passed"] + conformance["failed"] == 0)
if not os.path.exists(path):
    print("no test results were written (%s)" % path)
elif failed:
    print("the reference folder %s is present but no conformance test ran" % reference)
print("tests: core %s; conformance %s" % (describe(core), describe(conformance)))
sys.exit(1 if failed else 0)
PY
exit "$status"
