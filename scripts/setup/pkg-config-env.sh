# Sourced by the Makefile's recipes: on macOS, Homebrew keeps libarchive, libxml2 and libyaml out of the default
# pkg-config path; point SwiftPM at them.
if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null 2>&1; then
  for formula in libarchive libxml2 libyaml; do
    prefix=$(brew --prefix "$formula" 2>/dev/null || true)
    [ -n "$prefix" ] && PKG_CONFIG_PATH="$prefix/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
  done
  export PKG_CONFIG_PATH
fi
