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

Ends with `N passed, N failed`.
"""
import hashlib, json, os, re, shutil, stat, subprocess, sys, tarfile, tempfile, zipfile

import jsonschema
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
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


# ---------------------------------------------------------------------------------------------------- the action
def check_action():
    action = load_yaml("action.yml")
    check("action.yml: valid against SchemaStore's github-action schema", not schema_errors(action, "github-actions.json"),
          "\n".join(schema_errors(action, "github-actions.json")))
    runs = action.get("runs", {})
    check("action.yml: a composite action", runs.get("using") == "composite")
    inputs = set(action.get("inputs", {}))
    check("action.yml: inputs command, version, sarif, upload-sarif, annotations",
          {"command", "version", "sarif", "upload-sarif", "annotations"} <= inputs, sorted(inputs))
    text = read("action.yml")
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    check("action.yml: every input it reads is declared", used <= inputs, sorted(used - inputs))
    ids = {step.get("id") for step in runs.get("steps", []) if step.get("id")}
    referenced = set(re.findall(r"steps\.([\w-]+)\.outputs", text))
    check("action.yml: every step output it reads comes from a step it has", referenced <= ids, sorted(referenced - ids))
    steps = runs.get("steps", [])
    check("action.yml: every run step names its shell", all("shell" in s for s in steps if "run" in s))
    for step in steps:
        if "run" in step:
            ok, err = bash_syntax(step["run"])
            check("action.yml: `%s` parses in bash" % step.get("name"), ok, err)
    cache = [s for s in steps if str(s.get("uses", "")).startswith("actions/cache@")]
    check("action.yml: the binary is cached by version and platform", len(cache) == 1 and
          "version" in cache[0]["with"]["key"] and "platform" in cache[0]["with"]["key"])
    upload = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    check("action.yml: the SARIF upload is optional and cannot fail the job", len(upload) == 1 and
          upload[0].get("continue-on-error") is True and "upload-sarif" in upload[0].get("if", ""))
    check("action.yml: the last step exits with iapkit's code (after the upload)",
          steps and "exit" in steps[-1].get("run", "") and "exit-code" in json.dumps(steps[-1]))
    check("scripts/dist/action.sh: bash -n", subprocess.run(["bash", "-n", os.path.join(ROOT, "scripts/dist/action.sh")]).returncode == 0)
    if shutil.which("shellcheck"):
        done = subprocess.run(["shellcheck", "-S", "warning", os.path.join(ROOT, "scripts/dist/action.sh")],
                              capture_output=True, text=True)
        check("scripts/dist/action.sh: shellcheck", done.returncode == 0, done.stdout[-1500:])
    run_action_script()


def check_plan_comment(action, binary, project, log, work):
    """`comment: true`: the plan in Markdown posted on the pull request once, then the same comment updated, through
    a stand-in of GitHub's REST API."""
    import http.server
    import threading
    comments = []
    calls = []

    class GitHub(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            calls.append(("GET", self.path, self.headers.get("Authorization")))
            self.answer(200, comments)

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            calls.append(("POST", self.path, self.headers.get("Authorization")))
            comments.append({"id": 100 + len(comments), "body": body["body"]})
            self.answer(201, comments[-1])

        def do_PATCH(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            calls.append(("PATCH", self.path, self.headers.get("Authorization")))
            for comment in comments:
                if self.path.endswith("/%d" % comment["id"]):
                    comment["body"] = body["body"]
            self.answer(200, {})

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), GitHub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        event = os.path.join(work, "event.json")
        json.dump({"pull_request": {"number": 7}}, open(event, "w"))
        if os.path.exists(log):
            os.remove(log)
        github = {"GITHUB_API_URL": "http://127.0.0.1:%d" % server.server_address[1], "GITHUB_REPOSITORY": "team/app",
                  "GITHUB_EVENT_PATH": event, "GITHUB_TOKEN": "secret-token"}
        for _ in range(2):
            done, outputs = action("run", IAPKIT_BIN=binary, FAKE_IAPKIT_LOG=log, INPUT_COMMAND="asc plan --changed-since origin/main",
                                   INPUT_WORKING_DIRECTORY=project, INPUT_ANNOTATIONS="true", INPUT_SARIF="", INPUT_COMMENT="true",
                                   **github)
        ran = open(log).read().splitlines() if os.path.exists(log) else []
        check("action.sh run: comment: the plan is asked for in Markdown", ran == ["asc plan --changed-since origin/main --format markdown"] * 2, ran)
        methods = [call[0] for call in calls]
        check("action.sh run: comment: posted once on the pull request, then updated", methods == ["GET", "POST", "GET", "PATCH"]
              and calls[1][1] == "/repos/team/app/issues/7/comments" and calls[3][1] == "/repos/team/app/issues/comments/100"
              and all(call[2] == "Bearer secret-token" for call in calls), (calls, done.stdout, done.stderr))
        check("action.sh run: comment: one comment, with the plan and a marker", len(comments) == 1
              and comments[0]["body"].startswith("<!-- iapkit plan: ")
              and "stand-in output of: asc plan --changed-since origin/main --format markdown" in comments[0]["body"], comments)
        check("action.sh run: comment: the plan still shows in the log, the step's exit code is iapkit's",
              "stand-in output of: asc plan" in done.stdout and outputs.get("exit-code") == "0", (done.stdout, outputs))
        os.remove(event)
        calls.clear()
        done, outputs = action("run", IAPKIT_BIN=binary, FAKE_IAPKIT_LOG=log, INPUT_COMMAND="asc plan", INPUT_WORKING_DIRECTORY=project,
                               INPUT_ANNOTATIONS="true", INPUT_SARIF="", INPUT_COMMENT="true", **dict(github, GITHUB_EVENT_PATH=event))
        check("action.sh run: comment: outside a pull request nothing is posted", calls == [] and outputs.get("exit-code") == "0",
              (calls, done.stderr))
    finally:
        server.shutdown()


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


def run_action_script():
    script = os.path.join(ROOT, "scripts", "dist", "action.sh")
    work = tempfile.mkdtemp(prefix="iapkit-action-")
    try:
        platform = action_platform()
        releases = os.path.join(work, "releases")
        os.makedirs(releases)
        fake_release(releases, "9.8.7", platform)

        def action(verb, **variables):
            output = os.path.join(work, "output-%s" % verb)
            open(output, "w").close()
            env = {"PATH": os.environ["PATH"], "HOME": work, "GITHUB_OUTPUT": output,
                   "GITHUB_PATH": os.path.join(work, "path"), "IAPKIT_INSTALL_ROOT": os.path.join(work, "tools"),
                   "IAPKIT_DOWNLOAD_URL": "file://" + releases}
            env.update(variables)
            done = subprocess.run(["bash", script, verb], env=env, capture_output=True, text=True, cwd=work)
            outputs = dict(line.split("=", 1) for line in open(output).read().splitlines() if "=" in line)
            return done, outputs

        done, outputs = action("resolve", INPUT_VERSION="v9.8.7")
        check("action.sh resolve: v9.8.7 -> 9.8.7 for %s" % platform, done.returncode == 0 and
              outputs.get("version") == "9.8.7" and outputs.get("platform") == platform, done.stderr)
        done, outputs = action("resolve", ACTION_REF="v1.2.3")
        check("action.sh resolve: the action's own release tag is the default version", outputs.get("version") == "1.2.3",
              done.stderr)
        done, outputs = action("resolve", INPUT_VERSION="main; rm -rf /")
        check("action.sh resolve: a version that is not one is refused", done.returncode != 0)

        done, outputs = action("install", INPUT_VERSION="9.8.7")
        installed = os.path.join(work, "tools", "9.8.7", platform, "bin")
        check("action.sh install: downloads, verifies and unpacks", done.returncode == 0 and
              outputs.get("path") == installed and os.access(os.path.join(installed, "iapkit"), os.X_OK),
              done.stdout + done.stderr)
        check("action.sh install: puts bin/ on GITHUB_PATH", open(os.path.join(work, "path")).read().strip() == installed)
        shutil.rmtree(os.path.join(work, "tools"))
        sums = os.path.join(releases, "iapkit-9.8.7-%s.tar.gz.sha256" % platform)
        good = open(sums).read()
        open(sums, "w").write("0" * 64 + good[64:])
        done, outputs = action("install", INPUT_VERSION="9.8.7")
        check("action.sh install: a checksum mismatch is refused and nothing installed", done.returncode != 0 and
              "checksum mismatch" in done.stderr and not os.path.exists(installed), done.stderr)
        open(sums, "w").write(good)

        binary = os.path.join(releases, "stage", "iapkit-9.8.7-%s" % platform, "bin", "iapkit")
        log = os.path.join(work, "calls.log")
        project = os.path.join(work, "project")
        os.makedirs(project)
        done, outputs = action("run", IAPKIT_BIN=binary, FAKE_IAPKIT_LOG=log, INPUT_COMMAND="lint catalog --strict",
                               INPUT_WORKING_DIRECTORY=project, INPUT_ANNOTATIONS="true", INPUT_SARIF="reports/lint.sarif")
        calls = open(log).read().splitlines() if os.path.exists(log) else []
        check("action.sh run: lint writes SARIF, then annotates (--format github)", calls == [
            "lint catalog --strict --format sarif -o reports/lint.sarif", "lint catalog --strict --format github"], calls)
        check("action.sh run: outputs the SARIF path and exit code 0", outputs.get("exit-code") == "0" and
              outputs.get("sarif") == os.path.join(os.path.realpath(project), "reports", "lint.sarif"), outputs)
        os.remove(log)
        done, outputs = action("run", IAPKIT_BIN=binary, FAKE_IAPKIT_LOG=log, FAKE_IAPKIT_EXIT="1",
                               INPUT_COMMAND="lint catalog 'Store/My catalog.yaml' --format json",
                               INPUT_WORKING_DIRECTORY=project, INPUT_ANNOTATIONS="true", INPUT_SARIF="")
        calls = open(log).read().splitlines() if os.path.exists(log) else []
        check("action.sh run: a chosen format is kept, quoting respected, findings give exit-code 1 without failing the step",
              done.returncode == 0 and calls == ["lint catalog Store/My catalog.yaml --format json"] and
              outputs.get("exit-code") == "1", (calls, outputs, done.stderr))
        os.remove(log)
        done, outputs = action("run", IAPKIT_BIN=binary, FAKE_IAPKIT_LOG=log, INPUT_COMMAND="asc plan --check",
                               INPUT_WORKING_DIRECTORY=project, INPUT_ANNOTATIONS="true", INPUT_SARIF="x.sarif")
        calls = open(log).read().splitlines() if os.path.exists(log) else []
        check("action.sh run: other commands run as given", calls == ["asc plan --check"], calls)
        check_plan_comment(action, binary, project, log, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------------------------- the workflows
def check_workflows():
    folder = os.path.join(ROOT, ".github", "workflows")
    names = sorted(os.listdir(folder))
    check(".github/workflows: ci.yml and release.yml", {"ci.yml", "release.yml"} <= set(names), names)
    for name in names:
        workflow = load_yaml(".github", "workflows", name)
        errors = schema_errors(workflow, "github-workflows.json")
        check("%s: valid against SchemaStore's github-workflow schema" % name, not errors, "\n".join(errors))
        for job, step, script in run_blocks(workflow):
            ok, err = bash_syntax(script)
            check("%s: %s / %s parses in bash" % (name, job, step), ok, err)
        for path in re.findall(r"scripts/dist/[\w.-]+", read(".github", "workflows", name)):
            check("%s: %s exists" % (name, path), os.path.exists(os.path.join(ROOT, path)))
    ci = load_yaml(".github", "workflows", "ci.yml")
    runners = [job.get("runs-on", "") for job in ci["jobs"].values()]
    check("ci.yml: pull requests run `make test` on Linux and macOS", "pull_request" in ci["on"] and
          any("ubuntu" in r for r in runners) and any("macos" in r for r in runners) and
          sum("make test" in s for _, _, s in run_blocks(ci)) >= 2)
    release = load_yaml(".github", "workflows", "release.yml")
    tags = release["on"].get("push", {}).get("tags", [])
    check("release.yml: runs on version tags", any(t.startswith("v") for t in tags), tags)
    text = read(".github", "workflows", "release.yml")
    matrix = json.dumps(release["jobs"]["linux"]["strategy"]["matrix"])
    check("release.yml: Linux x86_64 and aarch64, macOS universal, static musl", "x86_64" in matrix and
          "aarch64" in matrix and "macos" in json.dumps(release["jobs"]["macos"]) and "linux-musl" in text)
    check("release.yml: each build runs make dist and make dist-check",
          all(sum(c in s for _, _, s in run_blocks({"jobs": {j: release["jobs"][j]}}) for c in ["make dist\n", "make dist-check"]) >= 1
              for j in ("linux", "macos")) and text.count("make dist-check") >= 2)
    check("release.yml: the release gets the archives and their .sha256", "gh release create" in text and
          "sha256sum -c" in text and "dist/*" in text)
    check("release.yml: the static build is best effort", release["jobs"]["linux-static"].get("continue-on-error") is True)


def check_readme_ci_example():
    readme = read("docs/ci.md")
    section = readme.split("## GitHub Actions workflow", 1)
    if not check("docs/ci.md: has the CI example section", len(section) == 2):
        return
    blocks = re.findall(r"```yaml\n(.*?)```", section[1].split("\n## ", 1)[0], re.S)
    if not check("README: the CI example is a YAML block", blocks):
        return
    workflow = yaml.safe_load(blocks[0])
    if True in workflow:
        workflow["on"] = workflow.pop(True)
    errors = schema_errors(workflow, "github-workflows.json")
    check("README CI example: valid against SchemaStore's github-workflow schema", not errors, "\n".join(errors))
    jobs = workflow.get("jobs", {})
    commands = {}
    for name, job in jobs.items():
        for step in job.get("steps", []):
            if re.match(r"[\w-]+/iapkit@v\d", str(step.get("uses", ""))):
                commands.setdefault(name, []).append(step.get("with", {}).get("command", "lint catalog"))
    check("README CI example: lint and a plan of the change on pull requests, a paced nightly `asc plan --check`, "
          "then package and a saved plan, and `asc push --plan` of that plan",
          commands.get("lint", [""])[0].startswith("lint catalog")
          and commands.get("plan-the-change", [""])[0].startswith("asc plan --changed-since ")
          and commands.get("drift") == ["asc plan --check --wait", "asc pull --diff"]
          and commands.get("plan", [""])[0].startswith("package --catalog")
          and commands.get("plan", [])[-1:] == ["asc plan --out release.plan.json"]
          and commands.get("push") == ["asc push --plan release.plan.json --yes"],
          commands)
    change_steps = jobs.get("plan-the-change", {}).get("steps", [])
    check("README CI example: the pull request's plan is posted as a comment, with the permission to",
          any(str(step.get("with", {}).get("comment")).lower() == "true" for step in change_steps)
          and jobs.get("plan-the-change", {}).get("permissions", {}).get("pull-requests") == "write", change_steps)
    uploads = [step for step in jobs.get("plan", {}).get("steps", []) if str(step.get("uses", "")).startswith("actions/upload-artifact@")]
    downloads = [step for step in jobs.get("push", {}).get("steps", []) if str(step.get("uses", "")).startswith("actions/download-artifact@")]
    handed = [d for d in downloads if uploads and d["with"]["name"] == uploads[0]["with"]["name"]]
    check("README CI example: the plan job keeps the plan, the lock and the archives it uploads; the push job, after it, "
          "takes them",
          len(uploads) == 1 and all(part in uploads[0]["with"]["path"] for part in ("release.plan.json", "iapkit.lock", "build/"))
          and len(handed) == 1 and jobs.get("push", {}).get("needs") == "plan", (uploads, downloads))
    check_ci_example_journal(jobs)
    check_ci_example_permissions(workflow)
    change = jobs.get("plan-the-change", {})
    check("README CI example: the pull request's plan has the base branch to compare with",
          "pull_request" in change.get("if", "")
          and any(step.get("with", {}).get("fetch-depth") == 0 for step in change.get("steps", [])), change)
    conditions = " ".join(job.get("if", "") for job in jobs.values())
    check("README CI example: on pull requests, nightly, and on the release branch",
          "pull_request" in conditions and "schedule" in conditions and "refs/heads/release" in conditions
          and "schedule" in workflow["on"] and "release" in json.dumps(workflow["on"].get("push", {})), conditions)
    push = jobs.get("push", {})
    check("README CI example: push runs in a protected environment and a concurrency group that queues",
          bool(push.get("environment")) and push.get("concurrency", {}).get("group")
          and push.get("concurrency", {}).get("cancel-in-progress") is False, push)
    key_steps = [step for job in jobs.values() for step in job.get("steps", []) if "ASC_PRIVATE_KEY" in json.dumps(step)]
    check("README CI example: the API key reaches only the asc steps, never a whole job",
          all("ASC_PRIVATE_KEY" not in json.dumps(job.get("env", {})) for job in jobs.values())
          and [s["with"]["command"].split(" --")[0] for s in key_steps] == ["asc plan", "asc plan", "asc pull", "asc plan", "asc push"], key_steps)
    for job, step, script in run_blocks(workflow):
        ok, err = bash_syntax(script)
        check("README CI example: `%s` parses in bash" % step, ok, err)
    run_readme_ci_shell(workflow)


def check_ci_example_journal(jobs):
    """A re-run of the push job finishes the push: it takes back the journal an earlier attempt kept
    (`release.plan.json.applied`, beside the plan) before pushing, and keeps it whatever the push's outcome."""
    steps = jobs.get("push", {}).get("steps", [])
    uses = [str(step.get("uses", "")) for step in steps]
    push = next((i for i, step in enumerate(steps) if "asc push --plan" in str(step.get("with", {}).get("command", ""))), None)
    if not check("README CI example: the push job pushes the saved plan", push is not None, uses):
        return
    journal = "release.plan.json.applied"
    restores = [step for step in steps[:push] if uses[steps.index(step)].startswith("actions/download-artifact@")
                and step.get("with", {}).get("name") not in (None, "release-plan")]
    keeps = [step for step in steps[push + 1:] if uses[steps.index(step)].startswith("actions/upload-artifact@")
             and step.get("with", {}).get("path") == journal]
    check("README CI example: the push job restores the plan's journal before the push (none on a first attempt)",
          len(restores) == 1 and restores[0].get("continue-on-error") is True, restores)
    check("README CI example: the push job keeps the plan's journal after the push, whatever its outcome, under the name "
          "it restores, replacing an earlier attempt's",
          len(keeps) == 1 and keeps[0].get("if") == "always()" and restores
          and keeps[0]["with"].get("name") == restores[0]["with"].get("name")
          and keeps[0]["with"].get("overwrite") is True and keeps[0]["with"].get("if-no-files-found") == "ignore", keeps)


def check_ci_example_permissions(workflow):
    """The least permissions: nothing for the workflow, each job `contents: read`, code scanning's write only where
    SARIF is uploaded, pull requests' write only where the plan is commented, and nothing else."""
    check("README CI example: the workflow grants no permission by default", workflow.get("permissions") == {},
          workflow.get("permissions"))
    for name, job in workflow.get("jobs", {}).items():
        steps = job.get("steps", [])
        needed = {"contents": "read"}
        if any(str(step.get("with", {}).get("upload-sarif")).lower() == "true" for step in steps):
            needed["security-events"] = "write"
        if any(str(step.get("with", {}).get("comment")).lower() == "true" for step in steps):
            needed["pull-requests"] = "write"
        check("README CI example: job `%s` has exactly the permissions it needs" % name, job.get("permissions") == needed,
              (job.get("permissions"), needed))


def check_action_inputs_documented():
    """Every input of the Action is named in docs/ci.md."""
    inputs = sorted(load_yaml("action.yml").get("inputs", {}))
    text = read("docs/ci.md").split("## The GitHub Action", 1)[-1].split("\n## ", 1)[0]
    missing = [name for name in inputs if "`%s`" % name not in text]
    check("docs/ci.md: every Action input is documented (action.yml)", inputs and not missing, missing)


def run_readme_ci_shell(workflow):
    """The release jobs' shell as a runner would run it: the packaging tool fetched from a stand-in store and checked,
    then each action step of the plan job and the push job through the action's own script against a stand-in
    release."""
    work = tempfile.mkdtemp(prefix="iapkit-readme-ci-")
    try:
        steps = workflow["jobs"]["plan"]["steps"] + workflow["jobs"]["push"]["steps"]
        fetch = [s for s in steps if "run" in s and "ba-package" in s["run"]]
        if not check("README CI example: a step fetches Apple's ba-package", len(fetch) == 1):
            return
        store = os.path.join(work, "store")
        os.makedirs(store)
        tool = os.path.join(store, "ba-package")
        open(tool, "w").write("#!/bin/sh\necho stand-in\n")
        digest = hashlib.sha256(open(tool, "rb").read()).hexdigest()
        runner_temp = os.path.join(work, "runner-temp")
        os.makedirs(runner_temp)
        github_env = os.path.join(work, "github-env")

        def fetch_tool(sha):
            open(github_env, "w").close()
            env = {"PATH": os.environ["PATH"], "HOME": work, "RUNNER_TEMP": runner_temp, "GITHUB_ENV": github_env,
                   "BA_PACKAGE_URL": "file://" + tool, "BA_PACKAGE_SHA256": sha, "TOOLS_TOKEN": "token"}
            return subprocess.run(["bash", "-e", "-c", fetch[0]["run"]], env=env, capture_output=True, text=True, cwd=work)

        done = fetch_tool(digest)
        fetched = os.path.join(runner_temp, "ba-package")
        check("README CI example: ba-package is fetched, checked and named for iapkit", done.returncode == 0
              and os.access(fetched, os.X_OK) and open(github_env).read() == "IAPKIT_BA_PACKAGE=%s\n" % fetched,
              done.stderr)
        done = fetch_tool("0" * 64)
        check("README CI example: a ba-package that is not the recorded one fails the step",
              done.returncode != 0 and open(github_env).read() == "", done.stderr)

        releases = os.path.join(work, "releases")
        os.makedirs(releases)
        fake_release(releases, "9.8.7", action_platform())
        binary = os.path.join(releases, "stage", "iapkit-9.8.7-%s" % action_platform(), "bin", "iapkit")
        log = os.path.join(work, "calls.log")
        project = os.path.join(work, "project")
        os.makedirs(project)
        expected = []
        for step in steps:
            if not re.match(r"[\w-]+/iapkit@v\d", str(step.get("uses", ""))):
                continue
            command = step["with"]["command"]
            expected.append(command)
            output = os.path.join(work, "output")
            open(output, "w").close()
            env = {"PATH": os.environ["PATH"], "HOME": work, "GITHUB_OUTPUT": output, "IAPKIT_BIN": binary,
                   "FAKE_IAPKIT_LOG": log, "INPUT_COMMAND": command, "INPUT_WORKING_DIRECTORY": project,
                   "INPUT_ANNOTATIONS": "true", "INPUT_SARIF": ""}
            subprocess.run(["bash", os.path.join(ROOT, "scripts", "dist", "action.sh"), "run"], env=env,
                           capture_output=True, text=True, cwd=work)
        calls = open(log).read().splitlines() if os.path.exists(log) else []
        check("README CI example: the plan job packages and plans, the push job pushes the plan", calls == expected, calls)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# -------------------------------------------------------------------------------------------------- pre-commit
PRE_COMMIT_LANGUAGES = {"conda", "coursier", "dart", "docker", "docker_image", "dotnet", "fail", "golang", "haskell",
                        "julia", "lua", "node", "perl", "pygrep", "python", "r", "ruby", "rust", "script", "swift",
                        "system", "unsupported", "unsupported_script"}
HOOK_SCHEMA = {  # pre-commit's MANIFEST_HOOK_DICT, as JSON Schema
    "type": "array", "minItems": 1,
    "items": {
        "type": "object",
        "required": ["id", "name", "entry", "language"],
        "properties": {
            "id": {"type": "string", "minLength": 1}, "name": {"type": "string"}, "entry": {"type": "string"},
            "language": {"enum": sorted(PRE_COMMIT_LANGUAGES)}, "alias": {"type": "string"},
            "files": {"type": "string"}, "exclude": {"type": "string"},
            "types": {"type": "array", "items": {"type": "string"}},
            "types_or": {"type": "array", "items": {"type": "string"}},
            "exclude_types": {"type": "array", "items": {"type": "string"}},
            "additional_dependencies": {"type": "array", "items": {"type": "string"}},
            "args": {"type": "array", "items": {"type": "string"}}, "always_run": {"type": "boolean"},
            "fail_fast": {"type": "boolean"}, "pass_filenames": {"type": "boolean"}, "description": {"type": "string"},
            "language_version": {"type": "string"}, "log_file": {"type": "string"},
            "minimum_pre_commit_version": {"type": "string"}, "require_serial": {"type": "boolean"},
            "stages": {"type": "array", "items": {"type": "string"}}, "verbose": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
}


def check_pre_commit():
    hooks = yaml.safe_load(read(".pre-commit-hooks.yaml"))
    errors = [e.message for e in jsonschema.Draft7Validator(HOOK_SCHEMA).iter_errors(hooks)]
    check(".pre-commit-hooks.yaml: pre-commit's manifest rules", not errors, "\n".join(errors))
    try:
        from pre_commit.clientlib import load_manifest
        load_manifest(os.path.join(ROOT, ".pre-commit-hooks.yaml"))
        check(".pre-commit-hooks.yaml: pre-commit's own loader accepts it", True)
    except ImportError:
        print("skip   pre-commit's own loader (pre-commit is not installed)")
    except Exception as error:  # the loader's own validation error
        check(".pre-commit-hooks.yaml: pre-commit's own loader accepts it", False, error)
    by_id = {hook["id"]: hook for hook in hooks}
    system, docker = by_id.get("iapkit-lint"), by_id.get("iapkit-lint-docker")
    check(".pre-commit-hooks.yaml: iapkit-lint is a system hook running `iapkit lint catalog`", system is not None and
          system["language"] == "system" and system["entry"].startswith("iapkit lint catalog")
          and system.get("pass_filenames") is False)
    check(".pre-commit-hooks.yaml: iapkit-lint-docker runs this version's container image", docker is not None and
          docker["language"] == "docker_image" and
          re.match(r"ghcr\.io/[\w-]+/iapkit:%s lint catalog$" % re.escape(source_version()), docker["entry"]),
          docker and docker["entry"])
    check(".pre-commit-hooks.yaml: no `language: swift` hook", all(h["language"] != "swift" for h in hooks))
    for hook in hooks:
        pattern = re.compile(hook["files"])
        should = ["catalog.yaml", "Store/catalog.yaml", "catalog.json", "content/com.x.y/ContentInfo.plist",
                  "content/com.x.y/Contents/levels/1.json", "iapkit.lock"]
        should_not = ["README.md", "Sources/App/Catalog.swift", "mycatalog.yaml.bak", "docs/Contents.md"]
        missed = [p for p in should if not pattern.search(p)]
        wrong = [p for p in should_not if pattern.search(p)]
        check("%s: `files` matches the catalog and content folders only" % hook["id"], not missed and not wrong,
              "missed %s, wrongly matched %s" % (missed, wrong))


# ----------------------------------------------------------------------------------------------------- Dockerfile
def dockerfile_instructions():
    text = re.sub(r"\\\n", " ", read("Dockerfile"))
    return [(m.group(1).upper(), m.group(2).strip()) for m in
            re.finditer(r"^\s*([A-Za-z]+)\s+(.*)$", text, re.M) if not m.group(0).lstrip().startswith("#")]


def check_dockerfile():
    instructions = dockerfile_instructions()
    args = dict(re.match(r"(\w+)=?(.*)", value).groups() for kind, value in instructions if kind == "ARG" and "=" in value)
    stages, current = [], None
    for kind, value in instructions:
        if kind == "FROM":
            image = re.sub(r"\$\{(\w+)\}", lambda m: args.get(m.group(1), ""), value.split()[0])
            current = {"image": image, "name": value.split()[-1] if " AS " in value.upper() else None, "steps": []}
            stages.append(current)
        elif current is not None:
            current["steps"].append((kind, value))
    check("Dockerfile: two stages", len(stages) == 2, [s["image"] for s in stages])
    if len(stages) != 2:
        return
    build, runtime = stages
    check("Dockerfile: builds with the official Swift image", re.match(r"swift:\d+\.\d+", build["image"]), build["image"])
    check("Dockerfile: the build stage runs make-dist", any("scripts/dist/make-dist.sh" in v for k, v in build["steps"]))
    check("Dockerfile: runs on a slim Debian", re.match(r"debian:[\w.-]*-slim$", runtime["image"]), runtime["image"])
    run_lines = " ".join(v for k, v in runtime["steps"] if k == "RUN")
    packages = set(re.findall(r"apt-get install[^&]*?--no-install-recommends ([\w .+-]+?)(?:&&|$)", run_lines)[0].split()) \
        if "apt-get install" in run_lines else set()
    check("Dockerfile: the runtime gets only libxml2 and CA certificates", packages == {"libxml2", "ca-certificates"},
          packages)
    check("Dockerfile: no compiler or -dev package in the runtime", not any(p.endswith("-dev") or p in ("gcc", "clang") for p in packages))
    entry = [v for k, v in runtime["steps"] if k == "ENTRYPOINT"]
    check("Dockerfile: entry point iapkit", entry and json.loads(entry[-1]) == ["iapkit"], entry)
    workdir = [v for k, v in runtime["steps"] if k == "WORKDIR"]
    check("Dockerfile: working directory /work", workdir and workdir[-1] == "/work", workdir)
    copies = [v for k, v in runtime["steps"] if k == "COPY"]
    check("Dockerfile: the runtime takes the unpacked archive from the build stage",
          any(c.startswith("--from=%s " % build["name"]) for c in copies), copies)
    ignored = read(".dockerignore").split()
    check(".dockerignore: keeps build folders out of the context", ".build" in ignored and "dist" in ignored)
    if shutil.which("hadolint"):
        done = subprocess.run(["hadolint", os.path.join(ROOT, "Dockerfile")], capture_output=True, text=True)
        check("Dockerfile: hadolint", done.returncode == 0, done.stdout)


# --------------------------------------------------------------------------------------------------- Homebrew
def check_formula():
    text = read("Formula", "iapkit.rb")
    version = source_version()
    sys.path.insert(0, os.path.join(ROOT, "scripts", "dist"))
    import formula
    sums = dict(zip(formula.PLATFORMS, re.findall(r'sha256 "([0-9a-f]{64})"', text)))
    repository = re.search(r'homepage "https://github.com/([^"]+)"', text).group(1)
    check("Formula/iapkit.rb: what scripts/dist/formula.py writes for %s" % version,
          text == formula.render(version, repository, sums))
    urls = re.findall(r'url "([^"]+)"', text)
    expected = ["iapkit-%s-%s.tar.gz" % (version, p) for p in formula.PLATFORMS]
    check("Formula/iapkit.rb: one archive per platform, as make dist names them",
          sorted(u.rsplit("/", 1)[1] for u in urls) == sorted(expected), urls)
    check("Formula/iapkit.rb: on_macos, and on_linux with on_intel and on_arm",
          all(block in text for block in ("on_macos do", "on_linux do", "on_intel do", "on_arm do")))
    check("Formula/iapkit.rb: keeps the archive's bin/ and share/iapkit layout",
          'bin.install "bin/iapkit"' in text and 'pkgshare.install Dir["share/iapkit/*"]' in text)
    check("Formula/iapkit.rb: installs the man page and the bash, zsh and fish completions",
          'man1.install "share/man/man1/iapkit.1"' in text
          and re.search(r'generate_completions_from_executable\(bin/"iapkit", "--generate-completion-script", '
                        r'shells: \[:bash, :zsh, :fish\]\)', text))
    test_block = text.split("test do", 1)[-1]
    check("Formula/iapkit.rb: `test do` writes and lints the starter catalog",
          '"init"' in test_block and '"lint", "catalog"' in test_block)
    if shutil.which("ruby"):
        done = subprocess.run(["ruby", "-c", os.path.join(ROOT, "Formula", "iapkit.rb")], capture_output=True, text=True)
        check("Formula/iapkit.rb: ruby -c", done.returncode == 0, done.stderr)
    else:
        print("skip   ruby -c (Ruby is not installed)")


# ----------------------------------------------------------------------------------------- plugin and packing
TRIPLE = re.compile(r"^(x86_64|arm64|aarch64)-(apple-macosx[\d.]*|unknown-linux-gnu|swift-linux-musl)$")
INFO_SCHEMA = {
    "type": "object", "required": ["schemaVersion", "artifacts"],
    "properties": {
        "schemaVersion": {"const": "1.0"},
        "artifacts": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["version", "type", "variants"],
            "properties": {
                "version": {"type": "string"}, "type": {"const": "executable"},
                "variants": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["path", "supportedTriples"],
                    "properties": {"path": {"type": "string"},
                                   "supportedTriples": {"type": "array", "minItems": 1, "items": {"type": "string"}}},
                }},
            },
        }},
    },
}


def check_plugin_and_packing():
    manifest = read("Plugins", "IAPKitPlugin", "Package.swift")
    version = source_version()
    check("Plugins/IAPKitPlugin: the manifest names this version", 'let version = "%s"' % version in manifest)
    check("Plugins/IAPKitPlugin: a binary target from the artifact bundle make dist writes",
          re.search(r'\.binaryTarget\(\s*name: "iapkit", url: "\\\(releases\)/v\\\(version\)/iapkit-\\\(version\)\.artifactbundle\.zip"',
                    manifest) is not None)
    check("Plugins/IAPKitPlugin: `swift package iapkit-lint`", 'verb: "iapkit-lint"' in manifest)
    check("Plugins/IAPKitPlugin: the plugin runs `iapkit lint catalog`",
          '["lint", "catalog", path]' in read("Plugins", "IAPKitPlugin", "Plugins", "IAPKitLint", "IAPKitLint.swift"))
    work = tempfile.mkdtemp(prefix="iapkit-pack-")
    try:
        archives = [fake_release(os.path.join(work, p), version, p) for p in ("linux-x86_64", "macos-universal")]
        first = hashlib.sha256(open(archives[0], "rb").read()).hexdigest()
        again = fake_release(os.path.join(work, "again"), version, "linux-x86_64")
        check("pack.py: the same folder gives the same archive, byte for byte",
              first == hashlib.sha256(open(again, "rb").read()).hexdigest())
        sums = open(archives[0] + ".sha256").read()
        check("pack.py: .sha256 in sha256sum's format", sums == "%s  %s\n" % (first, os.path.basename(archives[0])), sums)
        with tarfile.open(archives[0]) as tar:
            members = tar.getmembers()
        check("pack.py: entries owned by 0:0 and dated SOURCE_DATE_EPOCH",
              all(m.uid == 0 and m.gid == 0 and m.uname == "" for m in members) and len({m.mtime for m in members}) == 1)
        bundle = os.path.join(work, "iapkit-%s.artifactbundle.zip" % version)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/dist/pack.py"), "bundle", bundle] + archives, check=True)
        with zipfile.ZipFile(bundle) as z:
            info = json.loads(z.read("iapkit.artifactbundle/info.json"))
            names = set(z.namelist())
            modes = {n: (z.getinfo(n).external_attr >> 16) for n in names}
        errors = [e.message for e in jsonschema.Draft7Validator(INFO_SCHEMA).iter_errors(info)]
        check("artifact bundle: info.json has SwiftPM's shape", not errors, errors)
        variants = info["artifacts"]["iapkit"]["variants"]
        check("artifact bundle: every variant's path is in the bundle and executable",
              all("iapkit.artifactbundle/" + v["path"] in names and modes["iapkit.artifactbundle/" + v["path"]] & 0o111
                  for v in variants), variants)
        triples = [t for v in variants for t in v["supportedTriples"]]
        check("artifact bundle: triples for macOS (arm64, x86_64) and Linux",
              all(TRIPLE.match(t) for t in triples) and {"arm64-apple-macosx", "x86_64-apple-macosx",
                                                         "x86_64-unknown-linux-gnu"} <= set(triples), triples)
        check("artifact bundle: share/ beside each variant's bin/", all(
            any(n.startswith("iapkit.artifactbundle/" + v["path"].split("/bin/")[0] + "/share/iapkit/") for n in names)
            for v in variants))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for script in ("make-dist.sh", "build-times.sh", "action.sh"):
        check("scripts/dist/%s: bash -n" % script,
              subprocess.run(["bash", "-n", os.path.join(ROOT, "scripts", "dist", script)]).returncode == 0)


# -------------------------------------------------------------------------------------------------------- README
def check_readme():
    readme = read("README.md")
    headings = re.findall(r"^## (.+)$", readme, re.M)
    check("README: the first section is Install", headings and headings[0] == "Install", headings[:3])
    install = readme.split("## Install", 1)[-1].split("\n## ", 1)[0]
    for word, what in [(r"iapkit-[\w.${}-]+\.tar\.gz\.sha256 \| sha256sum -c", "the release archive, checked"),
                       (r"linux-x86_64.*linux-aarch64.*macos-universal", "each platform"), ("brew install", "Homebrew"),
                       (r"docker run --rm -v \"\$PWD:/work\"", "the container"), (r"uses: [\w-]+/iapkit@v", "the Action"),
                       ("libxml2", "the system libraries"), (r"glibc 2\.\d+", "the oldest glibc")]:
        check("README Install: %s" % what, re.search(word, install), word)
    second = headings[1] if len(headings) > 1 else ""
    body = readme.split("## " + second, 1)[-1].split("\n## ", 1)[0] if second else ""
    check("README: then working on iapkit itself with `make run` and `make test`",
          "make run" in body and "make test" in body, second)
    # The guides in docs/ that the README links to exist, and the locale list there is App Store Connect's.
    for link in re.findall(r"\]\((docs/[\w.-]+\.md)", readme):
        check("README: %s exists" % link, os.path.exists(os.path.join(ROOT, link)))
    locales = json.load(open(os.path.join(ROOT, "Tests/FakeAppStoreConnect/locales.json")))["locales"]
    listed = re.findall(r"`([\w-]+)`", read("docs/catalog.md").split("## Locales", 1)[-1])
    check("docs/catalog.md: the locale list is App Store Connect's", sorted(listed) == sorted(locales), listed[:5])


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
