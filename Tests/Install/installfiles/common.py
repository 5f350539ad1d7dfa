"""What every area's checks share: the repository's paths, the pass and fail counts, reading its files, and a
release archive as `make dist` lays it out, with a stand-in iapkit."""
import json, os, re, subprocess, sys

import jsonschema
import yaml

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(HERE))
results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    results["passed" if condition else "failed"] += 1
    print(("ok     " if condition else "FAIL   ") + name
          + ("" if condition or not detail else "\n       " + str(detail).strip().replace("\n", "\n       ")))
    return condition


def read(*parts):
    return open(os.path.join(ROOT, *parts)).read()


def load_yaml(*parts):
    # YAML 1.1 reads the key `on` as True; workflows mean the string.
    data = yaml.safe_load(read(*parts))
    if isinstance(data, dict) and True in data:
        data["on"] = data.pop(True)
    return data


def source_version():
    return re.search(r'static let version = "([^"]+)"', read("Sources", "iapkit", "IAPKitCommand.swift")).group(1)


def schema_errors(instance, schema_file):
    schema = json.load(open(os.path.join(HERE, "schemas", schema_file)))
    validator = jsonschema.Draft7Validator(schema)
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:200]) for e in validator.iter_errors(instance)]


def bash_syntax(script):
    """`bash -n` on a run block, its ${{ expressions }} replaced by a word."""
    text = re.sub(r"\$\{\{.*?\}\}", "EXPRESSION", script, flags=re.S)
    done = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
    return done.returncode == 0, done.stderr


def run_blocks(workflow):
    for job_name, job in (workflow.get("jobs") or {}).items():
        for step in job.get("steps", []):
            if "run" in step:
                yield job_name, step.get("name", step["run"].splitlines()[0]), step["run"]


def uses_of(workflow):
    return [step.get("uses", "") for job in workflow.get("jobs", {}).values() for step in job.get("steps", [])]


def fake_release(folder, version, platform):
    """A release archive as `make dist` lays it out, with a stand-in iapkit that records its arguments."""
    stage = os.path.join(folder, "stage", "iapkit-%s-%s" % (version, platform))
    os.makedirs(os.path.join(stage, "bin"))
    os.makedirs(os.path.join(stage, "share", "iapkit", "templates", "content"))
    binary = os.path.join(stage, "bin", "iapkit")
    with open(binary, "w") as out:
        out.write('#!/bin/sh\n'
                  'if [ "$1" = --version ]; then echo %s; exit 0; fi\n'
                  'echo "$*" >> "${FAKE_IAPKIT_LOG:-/dev/null}"\n'
                  'echo "stand-in output of: $*"\n'
                  'while [ $# -gt 0 ]; do if [ "$1" = -o ]; then echo "{\\"version\\": \\"2.1.0\\"}" > "$2"; fi; shift; done\n'
                  'exit "${FAKE_IAPKIT_EXIT:-0}"\n' % version)
    os.chmod(binary, 0o755)
    archive = os.path.join(folder, "iapkit-%s-%s.tar.gz" % (version, platform))
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/dist/pack.py"), "tar", stage, archive], check=True)
    return archive


def action_platform():
    machine = os.uname().machine
    if sys.platform == "darwin":
        return "macos-universal"
    return "linux-aarch64" if machine in ("aarch64", "arm64") else "linux-x86_64"
