#!/usr/bin/env python3
"""The release archive, tried as a new user would: unpacked into an empty folder, run with a clean environment.

  python3 Tests/Install/test_dist.py [--require] [ARCHIVE]

ARCHIVE defaults to the newest dist/iapkit-*-PLATFORM.tar.gz for this machine. Without one the check is skipped
with its reason (exit 0), unless --require (`make dist-check`, the release workflow) makes that a failure.

The archive must match its .sha256, unpack to iapkit-VERSION-PLATFORM/{bin/iapkit,share/iapkit/...}, and run with
PATH=/usr/bin:/bin, no LD_LIBRARY_PATH or DYLD_* variable, a fresh HOME, from a folder outside the checkout and
through a link on another folder (as Homebrew and `ln -s` install it): --version, init, lint catalog (text and
SARIF), new-content --template level-pack, bump, package (pkg and zip), export storekit, import storekit, and,
when the project's fake App Store Connect is at hand, asc plan/push/plan --check over loopback. On Linux `ldd`
must show no libswift* or libFoundation* library, and only the system libraries docs/install.md lists; on macOS
`otool -L` only /usr/lib and /System. With Plugins/IAPKitPlugin and the artifact bundle beside the archive,
`swift package iapkit-lint` runs the bundle's binary on a package's catalog. Ends with `N passed, N failed`.
"""
import glob, hashlib, json, os, platform, re, shutil, signal, subprocess, sys, tarfile, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Shared libraries the Linux binary may still load: glibc's, libstdc++ and libgcc_s (the Swift runtime is C++),
# and libxml2 (Debian's is built with ICU, whose data would add 30 MB if linked in). docs/install.md lists them.
ALLOWED_LINUX = re.compile(r"^(linux-vdso|linux-gate|ld-linux[-\w.]*|libc|libm|libdl|libpthread|librt|libutil|"
                           r"libstdc\+\+|libgcc_s|libxml2|libicu\w+|liblzma|libz)\.so")

passed, failed, skipped = [], [], []


def check(name, condition, detail=""):
    (passed if condition else failed).append(name)
    print(("ok     " if condition else "FAIL   ") + name + ("" if condition or not detail else "\n       " + detail.strip().replace("\n", "\n       ")))
    return condition


def machine_platform():
    system, arch = platform.system(), platform.machine()
    if system == "Darwin":
        return "macos-universal"
    return "linux-" + {"amd64": "x86_64", "arm64": "aarch64"}.get(arch, arch)


def find_archive():
    plat = machine_platform()
    found = sorted(glob.glob(os.path.join(ROOT, "dist", "iapkit-*-%s.tar.gz" % plat)), key=os.path.getmtime)
    return found[-1] if found else None


def clean_env(home, extra=None):
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C", "TERM": "dumb", "TZ": "UTC"}
    env.update(extra or {})
    return env


def run(argv, cwd, env, timeout=120):
    try:
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timed out after %d s" % timeout


def check_manual_and_completions(top, work):
    """share/man/man1/iapkit.1 opens with `man -l` and names every command; the completion scripts are where bash,
    zsh and fish look under share/, and each names iapkit's commands in its own shell's syntax."""
    manual = os.path.join(top, "share", "man", "man1", "iapkit.1")
    if not check("share/man/man1/iapkit.1", os.path.exists(manual)):
        return
    if shutil.which("man"):
        environment = dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="", LANG="C.UTF-8")
        code, out, err = run(["man", "-l", manual], work, environment)
        check("man -l share/man/man1/iapkit.1 opens the manual", code == 0 and "NAME" in out and "iapkit" in out,
              "exit %d: %s" % (code, err[-500:]))
        check("the manual has no mdoc warnings", "warning" not in err, err[-500:])
        missing = [command for command in ("init", "lint", "package", "export", "import", "localizations", "asc", "rules")
                   if not re.search(r"\b%s\b" % command, out)]
        check("the manual describes every command", not missing, missing)
    else:
        skipped.append("man -l: man is not installed")
        print("skip   man -l (man is not installed)")
    for path, shell, marker in [("bash-completion/completions/iapkit", "bash", "complete -"),
                                ("zsh/site-functions/_iapkit", "zsh", "#compdef iapkit"),
                                ("fish/vendor_completions.d/iapkit.fish", "fish", "complete -c 'iapkit'")]:
        script = os.path.join(top, "share", path)
        text = open(script, encoding="utf-8").read() if os.path.exists(script) else ""
        check("share/%s: %s completions" % (path, shell), marker in text and "localizations" in text, text[:200])
        if shell == "bash" and text:
            code, _, err = run(["bash", "-n", script], work, dict(os.environ))
            check("share/%s: bash -n" % path, code == 0, err)


def main():
    args = [a for a in sys.argv[1:] if a != "--require"]
    require = "--require" in sys.argv[1:]
    archive = os.path.abspath(args[0]) if args else find_archive()
    if not archive or not os.path.exists(archive):
        reason = "no release archive for %s in dist/ (run `make dist`, about 15 minutes on 2 cores)" % machine_platform()
        if require:
            check("release archive present", False, reason)
        else:
            skipped.append(reason)
            print("skip   dist check: " + reason)
        return finish()

    name = os.path.basename(archive)[: -len(".tar.gz")]
    version = re.match(r"iapkit-([^-]+)-", name).group(1)
    print("dist check of %s (%d bytes)" % (archive, os.path.getsize(archive)))

    # The checksum file, in sha256sum's format.
    digest = hashlib.sha256(open(archive, "rb").read()).hexdigest()
    sums = open(archive + ".sha256").read().split() if os.path.exists(archive + ".sha256") else []
    check("%s.sha256 matches" % os.path.basename(archive), sums[:2] == [digest, os.path.basename(archive)], repr(sums))

    work = tempfile.mkdtemp(prefix="iapkit dist ")  # a space in the path, on purpose
    try:
        unpack = os.path.join(work, "unpacked")
        os.makedirs(unpack)
        with tarfile.open(archive) as tar:
            names = tar.getnames()
            check("archive holds only %s/" % name, all(n == name or n.startswith(name + "/") for n in names))
            tar.extractall(unpack, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(unpack)
        top = os.path.join(unpack, name)
        binary = os.path.join(top, "bin", "iapkit")
        check("bin/iapkit is an executable", os.access(binary, os.X_OK))
        for needed in ["templates/catalog.yaml", "templates/content/default", "templates/content/level-pack",
                       "schemas/catalog.schema.json"]:
            check("share/iapkit/" + needed, os.path.exists(os.path.join(top, "share", "iapkit", needed)))
        check_manual_and_completions(top, work)
        check("binary is at most 56 MB", os.path.getsize(binary) <= 56 * 1024 * 1024,
              "%d bytes" % os.path.getsize(binary))
        check_libraries(binary)

        # A user's machine: a home of its own, a project folder outside the checkout, iapkit reached through a
        # link in a folder on PATH (the archive's bin/ itself is not on it).
        home = os.path.join(work, "home")
        project = os.path.join(work, "project")
        links = os.path.join(work, "links")
        for folder in (home, project, links):
            os.makedirs(folder)
        os.symlink(binary, os.path.join(links, "iapkit"))
        env = clean_env(home, {"PATH": links + ":/usr/bin:/bin"})
        code, out, err = run(["sh", "-c", "command -v swift swiftc || true"], project, env)
        check("no Swift toolchain on the clean PATH", out.strip() == "", out)

        def iapkit(*argv, expect=0, cwd=project, environment=None):
            code, out, err = run(["iapkit"] + list(argv), cwd, environment or env)
            ok = check("iapkit " + " ".join(argv) + ("" if expect == 0 else " (exit %d)" % expect), code == expect,
                       "exit %d\nstdout: %s\nstderr: %s" % (code, out[-1500:], err[-1500:]))
            return ok, out, err

        ok, out, _ = iapkit("--version")
        check("--version prints %s" % version, out.strip() == version, out)
        iapkit("init")
        check("init wrote catalog.yaml and catalog.schema.json",
              all(os.path.exists(os.path.join(project, f)) for f in ("catalog.yaml", "catalog.schema.json")))
        iapkit("lint", "catalog")
        iapkit("lint", "catalog", "--format", "sarif", "-o", "lint.sarif")
        try:
            sarif = json.load(open(os.path.join(project, "lint.sarif")))
            check("lint.sarif is SARIF 2.1.0 listing its rules", sarif.get("version") == "2.1.0"
                  and len(sarif["runs"][0]["tool"]["driver"]["rules"]) > 10)
        except (OSError, ValueError, KeyError, IndexError) as error:
            check("lint.sarif is SARIF 2.1.0 listing its rules", False, str(error))
        product = "com.example.myapp.levels.forest"
        iapkit("new-content", product, "--output", "content", "--template", "level-pack")
        check("new-content copied the level-pack template from share/",
              os.path.exists(os.path.join(project, "content", product, "Contents", "levels.json")))
        iapkit("lint", "content", "content/" + product)
        iapkit("bump", "content/" + product)
        iapkit("package", "content/" + product, "--output", "build")
        check("package wrote the .pkg and its manifest",
              all(os.path.exists(os.path.join(project, "build", f)) for f in (product + ".pkg", "iapkit-manifest.json")))
        iapkit("package", "content/" + product, "--output", "zips", "--format", "zip")
        check("package --format zip wrote the .zip", os.path.exists(os.path.join(project, "zips", product + ".zip")))
        iapkit("export", "storekit", "-o", "Products.storekit")
        iapkit("export", "json", "-o", "catalog.json")
        iapkit("import", "storekit", "Products.storekit", "-o", "imported.yaml")
        iapkit("lint", "catalog", "imported.yaml")
        # Outside any checkout, with the archive unpacked elsewhere: the templates are still found; and the override.
        iapkit("new-content", "com.example.myapp.levels.beach", "--output", os.path.join(work, "elsewhere"),
               cwd=home)
        moved = os.path.join(work, "moved")
        shutil.copytree(top, moved, symlinks=True)
        code, out, err = run([os.path.join(moved, "bin", "iapkit"), "init", os.path.join(work, "moved-init")], home, env)
        check("a copy of the folder moved elsewhere finds its share/", code == 0, err)
        broken = os.path.join(work, "lonely")
        os.makedirs(broken)
        shutil.copy2(binary, broken)
        code, out, err = run([os.path.join(broken, "iapkit"), "init", os.path.join(work, "x")], home, env)
        check("without share/ the error names what was searched and IAPKIT_SHARE",
              code == 2 and "IAPKIT_SHARE" in err and "share/iapkit" in err, err)
        code, out, err = run([os.path.join(broken, "iapkit"), "init", os.path.join(work, "y")], home,
                             clean_env(home, {"IAPKIT_SHARE": os.path.join(top, "share", "iapkit")}))
        check("IAPKIT_SHARE points a lone binary at share/", code == 0, err)
        check_asc(binary, project, env)
        check_homebrew_layout(top, version, work)
        check_pre_commit(binary, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    check_plugin(archive, version)
    return finish()


def check_libraries(binary):
    if platform.system() == "Darwin":
        code, out, err = run(["otool", "-L", binary], "/", None)
        libraries = [line.split()[0] for line in out.splitlines()[1:] if line.strip()]
        foreign = [lib for lib in libraries if not lib.startswith(("/usr/lib/", "/System/"))]
        check("otool -L: only /usr/lib and /System", code == 0 and not foreign, out)
        code, out, err = run(["lipo", "-archs", binary], "/", None)
        check("universal binary (arm64 and x86_64)", set(out.split()) >= {"arm64", "x86_64"}, out)
        return
    code, out, err = run(["ldd", binary], "/", {"PATH": "/usr/bin:/bin"})
    print("       ldd:\n         " + out.strip().replace("\n", "\n         "))
    libraries = [line.split()[0] for line in out.splitlines() if line.strip()]
    check("ldd: no libswift* or libFoundation* library", code == 0 and not any(
        re.search(r"libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime", lib) for lib in libraries), out)
    check("ldd: every library found", "not found" not in out, out)
    extra = [lib for lib in libraries if not ALLOWED_LINUX.match(os.path.basename(lib))]
    check("ldd: only the system libraries docs/install.md lists", not extra, " ".join(extra))
    code, out, err = run(["objdump", "-T", binary], "/", {"PATH": "/usr/bin:/bin"})
    versions = sorted({tuple(int(p) for p in v.split(".")) for v in re.findall(r"GLIBC_([0-9.]+)", out)})
    if versions:
        print("       newest glibc symbol version referenced: GLIBC_%s" % ".".join(map(str, versions[-1])))


def check_homebrew_layout(top, version, work):
    """What Formula/iapkit.rb's install does (bin.install, pkgshare.install) and its `test do`, without Homebrew."""
    cellar = os.path.join(work, "homebrew", "Cellar", "iapkit", version)
    os.makedirs(os.path.join(cellar, "bin"))
    shutil.copy2(os.path.join(top, "bin", "iapkit"), os.path.join(cellar, "bin", "iapkit"))
    shutil.copytree(os.path.join(top, "share", "iapkit"), os.path.join(cellar, "share", "iapkit"))
    prefix_bin = os.path.join(work, "homebrew", "bin")
    os.makedirs(prefix_bin)
    os.symlink(os.path.join("..", "Cellar", "iapkit", version, "bin", "iapkit"), os.path.join(prefix_bin, "iapkit"))
    testpath = os.path.join(work, "brew-test")
    os.makedirs(testpath)
    env = clean_env(os.path.join(work, "home"))
    steps = [["--version"], ["init", testpath], ["lint", "catalog", os.path.join(testpath, "catalog.yaml")],
             ["new-content", "com.example.myapp.levels.forest", "--output", os.path.join(testpath, "content"),
              "--template", "level-pack"]]
    failures = []
    for argv in steps:
        code, out, err = run([os.path.join(prefix_bin, "iapkit")] + argv, testpath, env)
        if code != 0:
            failures.append("%s: exit %d %s" % (" ".join(argv), code, err[-300:]))
    check("Homebrew layout: the formula's install and `test do` steps pass", not failures, "\n".join(failures))


def check_pre_commit(binary, work):
    """`pre-commit try-repo` on this repository's hooks, with the archive's iapkit on PATH (when pre-commit is here)."""
    if not shutil.which("pre-commit") or not shutil.which("git"):
        skipped.append("pre-commit: not installed")
        print("skip   pre-commit try-repo: pre-commit is not installed")
        return
    repo = os.path.join(work, "precommit-repo")
    os.makedirs(repo)
    links = os.path.join(work, "links")
    env = dict(os.environ, PATH=links + ":" + os.environ["PATH"], HOME=os.path.join(work, "home"),
               PRE_COMMIT_HOME=os.path.join(work, "pre-commit-cache"), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    run(["git", "init", "-q"], repo, env)
    run([binary, "init"], repo, env)
    run(["git", "add", "."], repo, env)
    run(["git", "commit", "-qm", "catalog"], repo, env)
    code, out, err = run(["pre-commit", "try-repo", ROOT, "iapkit-lint", "--all-files"], repo, env, timeout=300)
    check("pre-commit try-repo: iapkit-lint passes a clean catalog", code == 0 and "Passed" in out, out[-600:] + err[-600:])
    with open(os.path.join(repo, "catalog.yaml"), "a") as catalog:
        catalog.write("unknownKey: 1\n")
    code, out, err = run(["pre-commit", "try-repo", ROOT, "iapkit-lint", "--all-files"], repo, env, timeout=300)
    check("pre-commit try-repo: iapkit-lint fails on a finding", code != 0 and "[schema]" in out, out[-600:] + err[-600:])


def check_asc(binary, project, env):
    """asc against the project's fake App Store Connect on loopback: the HTTP, TLS-free path and JSON coding."""
    starter = os.path.join(ROOT, "scripts", "demo", "start-fake-asc.py")
    starter = starter if os.path.exists(starter) else None
    if not starter:
        skipped.append("asc against the fake: scripts/demo/start-fake-asc.py not found")
        print("skip   asc against the fake App Store Connect: no start script")
        return
    state = tempfile.mkdtemp(prefix="iapkit-fake-")
    try:
        code, out, err = run([sys.executable, starter, "--bundle-id", "com.example.myapp", "--dir", state], ROOT, None)
        if code != 0:
            skipped.append("asc against the fake: it did not start")
            print("skip   asc against the fake App Store Connect: it did not start\n       " + err[-500:])
            return
        variables = dict(re.findall(r"export (\w+)=['\"]?([^'\"\n]*)['\"]?", out))
        fake_env = dict(env)
        fake_env.update({k: v for k, v in variables.items() if k.startswith("ASC_")})
        for argv in (["asc", "plan"], ["asc", "push", "--yes"], ["asc", "plan", "--check"]):
            code, out, err = run([binary] + argv, project, fake_env, timeout=300)
            check("iapkit " + " ".join(argv) + " against the fake App Store Connect", code == 0,
                  "exit %d\n%s\n%s" % (code, out[-800:], err[-800:]))
    finally:
        pid_file = os.path.join(state, "fake-asc.pid")
        if os.path.exists(pid_file):
            try:
                os.kill(int(open(pid_file).read().strip()), signal.SIGTERM)
            except (ValueError, ProcessLookupError):
                pass
        shutil.rmtree(state, ignore_errors=True)


def check_plugin(archive, version):
    """`swift package iapkit-lint` in a package that uses Plugins/IAPKitPlugin with the local artifact bundle."""
    bundle = os.path.join(os.path.dirname(archive), "iapkit-%s.artifactbundle.zip" % version)
    plugin = os.path.join(ROOT, "Plugins", "IAPKitPlugin")
    swift = shutil.which("swift")
    if not (os.path.exists(bundle) and os.path.isdir(plugin) and swift):
        reason = "plugin: needs %s, Plugins/IAPKitPlugin and swift" % os.path.basename(bundle)
        skipped.append(reason)
        print("skip   " + reason)
        return
    work = tempfile.mkdtemp(prefix="iapkit-plugin-")
    try:
        plugin_copy = os.path.join(work, "IAPKitPlugin")
        shutil.copytree(plugin, plugin_copy, ignore=shutil.ignore_patterns(".build", "*.artifactbundle*"))
        shutil.copy2(bundle, os.path.join(plugin_copy, "iapkit.artifactbundle.zip"))
        app = os.path.join(work, "MyApp")
        os.makedirs(os.path.join(app, "Sources", "MyApp"))
        open(os.path.join(app, "Sources", "MyApp", "Store.swift"), "w").write("public let store = 1\n")
        open(os.path.join(app, "Package.swift"), "w").write(
            '// swift-tools-version:6.0\nimport PackageDescription\n'
            'let package = Package(name: "MyApp", dependencies: [.package(path: "../IAPKitPlugin")],\n'
            '    targets: [.target(name: "MyApp")])\n')
        env = dict(os.environ, IAPKIT_PLUGIN_LOCAL_BUNDLE="1")
        code, out, err = run([swift, "package", "--disable-sandbox", "iapkit-lint"], app, env, timeout=600)
        check("plugin: a package without catalog.yaml is refused with a message", code != 0 and
              "catalog.yaml" in (out + err), out[-800:] + err[-800:])
        shutil.copy2(os.path.join(ROOT, "templates", "catalog.yaml"), os.path.join(app, "catalog.yaml"))
        code, out, err = run([swift, "package", "--disable-sandbox", "iapkit-lint"], app, env, timeout=600)
        check("plugin: swift package iapkit-lint lints the package's catalog", code == 0, out[-800:] + err[-800:])
        with open(os.path.join(app, "catalog.yaml"), "a") as catalog:
            catalog.write("unknownKey: 1\n")
        code, out, err = run([swift, "package", "--disable-sandbox", "iapkit-lint"], app, env, timeout=600)
        check("plugin: a finding fails the command and names the rule", code != 0 and "schema" in (out + err),
              out[-800:] + err[-800:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def finish():
    for reason in skipped:
        print("skipped: " + reason)
    print("%d passed, %d failed, %d skipped" % (len(passed), len(failed), len(skipped)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
