# Sourced by the Makefile's recipes: on macOS, Homebrew keeps libarchive, libxml2 and libyaml out of the default
# pkg-config path; point SwiftPM at them.
if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null 2>&1; then
  for formula in libarchive libxml2 libyaml; do
    prefix=$(brew --prefix "$formula" 2>/dev/null || true)
    [ -n "$prefix" ] && PKG_CONFIG_PATH="$prefix/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
  done
  # yajl's headers include each other as <yajl/...>, but its yajl.pc names the yajl/ folder itself, which Homebrew's
  # include folder does not put on the path the way /usr/include does on Debian: a .pc of our own names the folder
  # above it.
  prefix=$(brew --prefix yajl 2>/dev/null || true)
  if [ -n "$prefix" ] && [ -d "$prefix/include/yajl" ]; then
    pcdir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.build/pkgconfig-yajl"
    mkdir -p "$pcdir"
    printf 'Name: yajl\nDescription: yajl from Homebrew\nVersion: %s\nCflags: -I%s/include\nLibs: -L%s/lib -lyajl\n' \
      "$(pkg-config --modversion yajl 2>/dev/null || echo 2.1.0)" "$prefix" "$prefix" > "$pcdir/yajl.pc"
    PKG_CONFIG_PATH="$pcdir:${PKG_CONFIG_PATH:-}"
  fi
  export PKG_CONFIG_PATH
fi
