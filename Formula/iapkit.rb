# iapkit for Homebrew, on macOS and Linux: the release archive, nothing to build.
#   brew tap iapkit/iapkit https://github.com/iapkit/iapkit
#   brew install iapkit
# The release workflow rewrites this file for each release (scripts/dist/formula.py); edit the template there.
class Iapkit < Formula
  desc "Lint, package, export and sync Apple in-app purchase catalogs"
  homepage "https://github.com/iapkit/iapkit"
  version "0.1.0"

  on_macos do
    url "https://github.com/iapkit/iapkit/releases/download/v0.1.0/iapkit-0.1.0-macos-universal.tar.gz"
    sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  end

  on_linux do
    on_intel do
      url "https://github.com/iapkit/iapkit/releases/download/v0.1.0/iapkit-0.1.0-linux-x86_64.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_arm do
      url "https://github.com/iapkit/iapkit/releases/download/v0.1.0/iapkit-0.1.0-linux-aarch64.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
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
    assert_match version.to_s, shell_output("#{bin}/iapkit --version")
    assert_match "iapkit", shell_output("#{bin}/iapkit --generate-completion-script bash")
    system bin/"iapkit", "init", testpath
    assert_path_exists testpath/"catalog.yaml"
    system bin/"iapkit", "lint", "catalog", testpath/"catalog.yaml"
    system bin/"iapkit", "new-content", "com.example.myapp.levels.forest", "--output", testpath/"content",
           "--template", "level-pack"
    assert_path_exists testpath/"content/com.example.myapp.levels.forest/Contents/levels.json"
  end
end
