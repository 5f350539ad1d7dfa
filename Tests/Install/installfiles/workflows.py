"""The workflows in .github/workflows and the CI example in docs/ci.md: against SchemaStore's schema, every `run:`
block through `bash -n`, the example's jobs, permissions and journal, and its release shell run for real."""
import hashlib, json, os, re, shutil, subprocess, tempfile

import yaml

from .common import ROOT, action_platform, bash_syntax, check, fake_release, load_yaml, read, run_blocks, schema_errors


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
    SARIF is uploaded, pull requests' write only where the plan is commented, contents' write only where a step pushes
    a commit (the base push records), and nothing else."""
    check("README CI example: the workflow grants no permission by default", workflow.get("permissions") == {},
          workflow.get("permissions"))
    for name, job in workflow.get("jobs", {}).items():
        steps = job.get("steps", [])
        needed = {"contents": "read"}
        if any(str(step.get("with", {}).get("upload-sarif")).lower() == "true" for step in steps):
            needed["security-events"] = "write"
        if any(str(step.get("with", {}).get("comment")).lower() == "true" for step in steps):
            needed["pull-requests"] = "write"
        if any("git push" in str(step.get("run", "")) for step in steps):
            needed["contents"] = "write"
        check("README CI example: job `%s` has exactly the permissions it needs" % name, job.get("permissions") == needed,
              (job.get("permissions"), needed))


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
