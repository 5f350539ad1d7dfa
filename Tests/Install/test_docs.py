#!/usr/bin/env python3
"""Docs that cannot go stale: README.md and docs/*.md checked against the built iapkit.

- Every shell block marked runnable (`<!-- runnable -->` on the line before its ```sh fence) runs with bash -e, in
  order, page by page: each page in a fresh folder holding a copy of examples/, with iapkit on PATH and the
  project's fake App Store Connect started for the apps the examples name (com.example.fruitstand and
  com.example.myapp), its ASC_* variables set. A block that exits non-zero fails, with its output.
- Every `iapkit` command named in the docs (in code blocks and inline code) exists, and every long option written
  after it is one that command's `--help` lists. A line saying "did you mean" shows a mistyped command on purpose.

usage: test_docs.py --iapkit PATH [--only PAGE]   (GeneratedDocsTests runs it with the built binary)
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import time
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAKE_APPS = ["com.example.fruitstand", "com.example.myapp"]
# Options argument-parser gives every command without listing them in --help.
BUILT_IN_OPTIONS = {"--help", "--version", "--generate-completion-script", "--experimental-dump-help"}
failures = []


def pages(only=None):
    found = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    return [page for page in found if not only or os.path.basename(page) == only]


def runnable_blocks(text):
    """The shell blocks marked runnable, each with its line number."""
    blocks = []
    for match in re.finditer(r"<!-- runnable -->\n```(?:sh|bash)\n(.*?)```", text, re.S):
        blocks.append((text.count("\n", 0, match.start()) + 2, match.group(1)))
    return blocks


def run_page(page, blocks, iapkit):
    work = tempfile.mkdtemp(prefix="iapkit-docs-")
    fake_dir = os.path.join(work, ".fake")
    try:
        shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(work, "examples"))
        starter = [sys.executable, os.path.join(ROOT, "scripts", "demo", "start-fake-asc.py"), "--dir", fake_dir]
        for app in FAKE_APPS:
            starter += ["--bundle-id", app]
        exports = subprocess.run(starter, capture_output=True, text=True, timeout=60)
        if exports.returncode != 0:
            failures.append("%s: the fake App Store Connect did not start: %s" % (page, exports.stderr))
            return
        environment = dict(os.environ, NO_COLOR="1", PATH=os.path.dirname(os.path.abspath(iapkit)) + os.pathsep + os.environ["PATH"])
        for line in exports.stdout.splitlines():
            name, _, value = line.removeprefix("export ").partition("=")
            environment[name] = value.strip("'")
        for line_number, block in blocks:
            result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block], cwd=work, env=environment,
                                    capture_output=True, text=True, timeout=600)
            if result.returncode != 0:
                failures.append("%s:%d: the runnable block exited %d:\n%s\n--- output:\n%s%s" % (
                    os.path.relpath(page, ROOT), line_number, result.returncode, block, result.stdout[-2000:], result.stderr[-2000:]))
    finally:
        pid_file = os.path.join(fake_dir, "fake-asc.pid")
        if os.path.exists(pid_file):
            with open(pid_file) as handle:
                stop_fake(handle.read().strip())
        shutil.rmtree(work, ignore_errors=True)


def stop_fake(pid_text):
    """SIGTERM, and SIGKILL when the fake is still there a few seconds later."""
    try:
        pid = int(pid_text)
        os.kill(pid, signal.SIGTERM)
        for _ in range(50):
            time.sleep(0.1)
            os.kill(pid, 0)
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, ValueError):
        pass


class Commands:
    """The command tree as `--help` shows it, read once per command path."""

    def __init__(self, iapkit):
        self.iapkit = iapkit
        self.cache = {}

    def help(self, path):
        key = tuple(path)
        if key not in self.cache:
            result = subprocess.run([self.iapkit] + path + ["--help"], capture_output=True, text=True,
                                    env=dict(os.environ, COLUMNS="200"))
            text = result.stdout if result.returncode == 0 else None
            subcommands, default = [], None
            if text and "SUBCOMMANDS:" in text:
                for line in text.split("SUBCOMMANDS:", 1)[1].splitlines():
                    match = re.match(r"^  ([\w-]+)( \(default\))?", line)
                    if match:
                        subcommands.append(match.group(1))
                        if match.group(2):
                            default = match.group(1)
            options = set(re.findall(r"(?<![\w-])--[a-z0-9][a-z0-9-]*", text or ""))
            self.cache[key] = (text is not None, subcommands, default, options)
        return self.cache[key]

    def check(self, words, where):
        """`words` follow `iapkit`: the command path, then arguments and options."""
        path = []
        for word in words:
            _, subcommands, _, _ = self.help(path)
            alternatives = word.split("|")
            if subcommands and all(alternative in subcommands for alternative in alternatives):
                path.append(alternatives[0])
                continue
            break
        exists, subcommands, default, options = self.help(path)
        following = words[len(path)] if len(words) > len(path) else ""
        if subcommands and not default and re.match(r"^[a-z][\w-]*$", following):
            failures.append("%s: `iapkit %s` is not an iapkit command" % (where, " ".join(path + [following])))
            return
        if default:
            path.append(default)
            exists, subcommands, default, options = self.help(path)
        named = ["iapkit"] + path
        if not exists:
            failures.append("%s: `%s` has no --help" % (where, " ".join(named)))
            return
        for word in words:
            for option in re.findall(r"^\[?(--[a-z0-9][a-z0-9-]*)", word):
                if option not in options and option not in BUILT_IN_OPTIONS:
                    failures.append("%s: `%s` has no option %s" % (where, " ".join(named), option))


def command_lines(text):
    """Every `iapkit ...` written in a code block or inline code, with its line number."""
    found = []
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            in_block = not in_block
            continue
        if "did you mean" in line:  # a mistyped command, shown on purpose
            continue
        if in_block:
            for match in re.finditer(r"(?:^|[\s;(&|$\"]|\$\(\s*)iapkit ((?:[^#\n`)\"])*)", line):
                found.append((number, match.group(1)))
        else:
            for code in re.findall(r"`([^`]*)`", line):
                for match in re.finditer(r"(?:^|\s)iapkit ([^`]*)", code):
                    found.append((number, match.group(1)))
    return found


def words_of(command):
    """The words of one command, up to a pipe, a redirection or the next command."""
    words = []
    for word in re.split(r"\s+", command.strip()):
        if word in ("|", "||", "&&", ";", ">", "2>", ">>", "<") or word.startswith((">", "2>", "<")):
            break
        words.append(word)
    return words


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iapkit", required=True)
    parser.add_argument("--only", help="one page, by file name")
    parser.add_argument("--no-run", action="store_true", help="only check the commands and options")
    args = parser.parse_args()
    # A test runner may start this script with signals blocked; the fakes it starts inherit the mask, and a fake
    # that cannot receive SIGTERM would outlive the run.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    commands = Commands(os.path.abspath(args.iapkit))
    ran = checked = 0
    for page in pages(args.only):
        with open(page, encoding="utf-8") as handle:
            text = handle.read()
        relative = os.path.relpath(page, ROOT)
        for number, command in command_lines(text):
            words = words_of(command)
            if words:
                commands.check(words, "%s:%d" % (relative, number))
                checked += 1
        blocks = runnable_blocks(text)
        if blocks and not args.no_run:
            run_page(page, blocks, args.iapkit)
            ran += len(blocks)
    for failure in failures:
        print("FAIL " + failure)
    print("docs: %d runnable blocks run, %d iapkit commands checked, %d failed" % (ran, checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
