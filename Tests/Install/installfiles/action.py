"""The GitHub Action: action.yml against SchemaStore's schema, its inputs documented in docs/ci.md, and its shell
(scripts/dist/action.sh) run for real against a local release and a stand-in of GitHub's REST API."""
import json, os, re, shutil, subprocess, tempfile

from .common import ROOT, action_platform, bash_syntax, check, fake_release, load_yaml, read, schema_errors


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

def check_action_inputs_documented():
    """Every input of the Action is named in docs/ci.md."""
    inputs = sorted(load_yaml("action.yml").get("inputs", {}))
    text = read("docs/ci.md").split("## The GitHub Action", 1)[-1].split("\n## ", 1)[0]
    missing = [name for name in inputs if "`%s`" % name not in text]
    check("docs/ci.md: every Action input is documented (action.yml)", inputs and not missing, missing)
