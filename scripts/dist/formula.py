#!/usr/bin/env python3
"""Writes Formula/iapkit.rb, the Homebrew formula that installs a release's archives (standard library only).

  formula.py [--version V] [--repository OWNER/NAME] [--sums DIR] [--output FILE]

V defaults to the version in Sources/iapkit/IAPKitCommand.swift, the repository to iapkit/iapkit, FILE to
Formula/iapkit.rb. Each archive's checksum is read from DIR/iapkit-V-PLATFORM.tar.gz.sha256 (what `make dist`
and the release workflow write); an archive not in DIR gets a checksum of zeros, which the release workflow
replaces when it publishes the release.
"""
import argparse, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLATFORMS = ["macos-universal", "linux-x86_64", "linux-aarch64"]

TEMPLATE = '''# iapkit for Homebrew, on macOS and Linux: the release archive, nothing to build.
#   brew tap {tap} https://github.com/{repository}
#   brew install iapkit
# The release workflow rewrites this file for each release (scripts/dist/formula.py); edit the template there.
class Iapkit < Formula
  desc "Lint, package, export and sync Apple in-app purchase catalogs"
  homepage "https://github.com/{repository}"
  version "{version}"

  on_macos do
    url "{base}/iapkit-{version}-macos-universal.tar.gz"
    sha256 "{macos-universal}"
  end

  on_linux do
    on_intel do
      url "{base}/iapkit-{version}-linux-x86_64.tar.gz"
      sha256 "{linux-x86_64}"
    end
    on_arm do
      url "{base}/iapkit-{version}-linux-aarch64.tar.gz"
      sha256 "{linux-aarch64}"
    end
  end

  def install
    # iapkit finds its templates and schemas in ../share/iapkit beside its real path, so the Cellar keeps the
    # archive's layout and Homebrew links bin/iapkit.
    bin.install "bin/iapkit"
    pkgshare.install Dir["share/iapkit/*"]
    # The man page comes in the archive (swift-argument-parser's manual generator); the completions are written by
    # the binary itself, as the archive's are.
    man1.install "share/man/man1/iapkit.1"
    generate_completions_from_executable(bin/"iapkit", "--generate-completion-script", shells: [:bash, :zsh, :fish])
  end

  def caveats
    on_linux do
      <<~EOS
        iapkit loads the system's libxml2 (libxml2.so.2) and glibc 2.35 or later; most distributions have both.
      EOS
    end
  end

  test do
    assert_match version.to_s, shell_output("#{{bin}}/iapkit --version")
    assert_match "iapkit", shell_output("#{{bin}}/iapkit --generate-completion-script bash")
    system bin/"iapkit", "init", testpath
    assert_path_exists testpath/"catalog.yaml"
    system bin/"iapkit", "lint", "catalog", testpath/"catalog.yaml"
    system bin/"iapkit", "new-content", "com.example.myapp.levels.forest", "--output", testpath/"content",
           "--template", "level-pack"
    assert_path_exists testpath/"content/com.example.myapp.levels.forest/Contents/levels.json"
  end
end
'''


def source_version():
    text = open(os.path.join(ROOT, "Sources", "iapkit", "IAPKitCommand.swift")).read()
    return re.search(r'static let version = "([^"]+)"', text).group(1)


def render(version, repository, sums):
    values = {"version": version, "repository": repository, "tap": repository.split("/")[0] + "/iapkit",
              "base": "https://github.com/%s/releases/download/v%s" % (repository, version)}
    for platform in PLATFORMS:
        values[platform] = sums.get(platform, "0" * 64)
    return TEMPLATE.format(**values)


def read_sums(folder, version):
    sums = {}
    for platform in PLATFORMS:
        path = os.path.join(folder, "iapkit-%s-%s.tar.gz.sha256" % (version, platform))
        if os.path.exists(path):
            digest = open(path).read().split()[0]
            if not re.fullmatch(r"[0-9a-f]{64}", digest):
                sys.exit("formula: %s holds no SHA-256" % path)
            sums[platform] = digest
    return sums


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", default=None)
    parser.add_argument("--repository", default="iapkit/iapkit")
    parser.add_argument("--sums", default=None)
    parser.add_argument("--output", default=os.path.join(ROOT, "Formula", "iapkit.rb"))
    options = parser.parse_args()
    version = (options.version or source_version()).lstrip("v")
    sums = read_sums(options.sums, version) if options.sums else {}
    with open(options.output, "w") as out:
        out.write(render(version, options.repository, sums))
    print("formula: wrote %s for %s (%d of %d checksums)" % (options.output, version, len(sums), len(PLATFORMS)))
