#!/usr/bin/env python3
"""The files that install and run iapkit elsewhere, checked in seconds (standard library, PyYAML, jsonschema).

  python3 Tests/Install/test_install_files.py

- action.yml and .github/workflows/*.yml against SchemaStore's published schemas (vendored in schemas/), every
  `run:` block through `bash -n`, and the action's shell (scripts/dist/action.sh) run for real: resolving a
  version, installing a release archive from a local folder (checksum checked, a bad one refused), and running
  lint with annotations and SARIF against a stand-in binary that records its arguments.
- The CI example in docs/ci.md as a workflow: lint on pull requests, `asc plan --check` nightly, packaging then
  `asc push --yes` on the release branch in a protected environment and a concurrency group, the API key only on
  the steps that need it; its shell run for real (Apple's packaging tool fetched from a stand-in store and checked,
  each action step through the action's script against a stand-in release).
- .pre-commit-hooks.yaml against pre-commit's manifest rules (and pre-commit's own loader when installed), and
  its `files` pattern against the paths it must and must not match.
- Dockerfile: a Swift build stage, a slim Debian runtime stage with the runtime libraries, entry point iapkit,
  working directory /work.
- Formula/iapkit.rb: what scripts/dist/formula.py writes for this version, one URL per platform `make dist`
  names, a `test do` that lints the starter catalog; `ruby -c` when Ruby is installed.
- Plugins/IAPKitPlugin: the manifest names the bundle `make dist` writes; scripts/dist/pack.py writes a
  reproducible archive and an artifact bundle whose info.json lists each variant with valid triples.
- README: opens with Install (archive, Homebrew, container, Action), then `make run` and `make test`.

The checks live in installfiles/, one module per area. Ends with `N passed, N failed`.
"""
import sys

from installfiles.action import check_action, check_action_inputs_documented
from installfiles.channels import check_dockerfile, check_formula, check_plugin_and_packing, check_pre_commit, check_readme
from installfiles.common import check, results
from installfiles.workflows import check_readme_ci_example, check_workflows


def main():
    for section in (check_action, check_action_inputs_documented, check_workflows, check_readme_ci_example, check_pre_commit, check_dockerfile,
                    check_formula, check_plugin_and_packing, check_readme):
        try:
            section()
        except Exception as error:  # a broken file must show as a failure, not stop the other checks
            check("%s ran" % section.__name__, False, "%s: %s" % (type(error).__name__, error))
    print("%d passed, %d failed" % (results["passed"], results["failed"]))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
