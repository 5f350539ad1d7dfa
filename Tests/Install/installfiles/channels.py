"""The other ways iapkit is installed and run: the pre-commit hooks, the container image, the Homebrew formula, the
SwiftPM plugin with the archives and artifact bundle `make dist` packs, and the README's Install section."""
import hashlib, json, os, re, shutil, subprocess, sys, tarfile, tempfile, zipfile

import jsonschema
import yaml

from .common import ROOT, check, fake_release, read, source_version


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
