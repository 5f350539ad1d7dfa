#!/usr/bin/env bash
# `make dist`: the relocatable release archive and the SwiftPM plugin's artifact bundle.
#
#   scripts/dist/make-dist.sh [--output DIR] [--swift-sdk NAME] [--no-build]
#
# Writes into DIR (default dist/):
#   iapkit-VERSION-PLATFORM.tar.gz         iapkit-VERSION-PLATFORM/{bin/iapkit, share/iapkit/{templates,schemas},
#                                          share/man/man1/iapkit.1, share/{bash-completion,zsh,fish}/..., ...}
#   iapkit-VERSION-PLATFORM.tar.gz.sha256  in `sha256sum` format
#   iapkit-VERSION.artifactbundle.zip      (+ .sha256) the binary target of Plugins/IAPKitPlugin, with its info.json
#
# PLATFORM is linux-x86_64 or linux-aarch64 (the Swift runtime and Foundation linked in with
# --static-swift-stdlib; libyaml, yajl, zlib and libarchive linked in from Debian's static libraries), linux-static-ARCH
# with --swift-sdk ARCH-swift-linux-musl (the Static Linux SDK: no shared library at all), or macos-universal
# (arm64 + x86_64). The binary is stripped. The archive is reproducible: sorted entries, owner 0, and every time
# from SOURCE_DATE_EPOCH (default: the last commit's time).
set -euo pipefail
cd "$(dirname "$0")/../.."

output=dist
swift_sdk=""
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --output) output=$2; shift 2 ;;
    --swift-sdk) swift_sdk=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "make-dist: unknown argument $1" >&2; exit 2 ;;
  esac
done

version=$(sed -n 's/^ *static let version = "\(.*\)"$/\1/p' Sources/iapkit/IAPKitCommand.swift)
[ -n "$version" ] || { echo "make-dist: cannot read the version from Sources/iapkit/IAPKitCommand.swift" >&2; exit 1; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 978307200)}

for setup in scripts/pkg-config-env.sh scripts/setup/pkg-config-env.sh; do
  [ -f "$setup" ] && source "$setup"
done

log() { printf 'make-dist: %s\n' "$*"; }
seconds() { python3 -c 'import time; print("%.0f" % time.time())'; }

case "$(uname -s)" in
Linux)
  arch=$(uname -m)
  [ "$arch" = arm64 ] && arch=aarch64
  if [ -n "$swift_sdk" ]; then
    # The Static Linux SDK (musl): the C libraries must be built for musl too; IAPKIT_MUSL_PREFIX names the folder
    # that holds their include/ and lib/ (the release workflow fills it from Alpine's -static packages).
    arch=${swift_sdk%%-*}
    platform=linux-static-$arch
    prefix=${IAPKIT_MUSL_PREFIX:?set IAPKIT_MUSL_PREFIX to the folder with the musl builds of libyaml, yajl, libarchive, libxml2 and zlib}
    # The module maps' `link "archive"` and `link "xml2"` name one library each; linker scripts of the same name
    # bring in the static libraries those need, whichever of them the prefix has.
    groups=$PWD/.build/dist-musl-libs
    rm -rf "$groups" && mkdir -p "$groups"
    present() { for name in "$@"; do [ -f "$prefix/lib/lib$name.a" ] && printf ' %s' "$prefix/lib/lib$name.a"; done; }
    echo "GROUP ($(present archive z lzma zstd lz4 bz2 acl expat xml2 crypto))" > "$groups/libarchive.a"
    echo "GROUP ($(present xml2 lzma z))" > "$groups/libxml2.a"
    ln -s "$prefix/lib/libyaml.a" "$groups/libyaml.a"
    # yajl's build names its static archive libyajl_s.a; some packagers rename it.
    for archive in libyajl.a libyajl_s.a; do
      [ -f "$prefix/lib/$archive" ] && { ln -sf "$prefix/lib/$archive" "$groups/libyajl.a"; break; }
    done
    ln -s "$prefix/lib/libz.a" "$groups/libz.a"
    build_args=(--swift-sdk "$swift_sdk" -Xcc "-I$prefix/include" -Xcc "-I$prefix/include/libxml2" -Xlinker "-L$groups")
    export PKG_CONFIG_PATH=$groups   # no .pc files there: the include and library folders above are the whole story
  else
    platform=linux-$arch
    # Static C libraries: pkg-config files of our own point SwiftPM at a folder that holds only Debian's static
    # archives, searched before the system's, so `-lyaml` (from pkg-config and from the module map's `link "yaml"`)
    # finds libyaml.a. libarchive.a there is a linker script that adds what its zip writer needs (nettle for
    # encrypted zips and HMAC, zlib); iapkit writes no other format. libxml2 stays shared: Debian builds it with ICU,
    # and its static archive would bring ICU's 30 MB of data back in (see docs/install.md).
    multiarch=$(gcc -print-multiarch 2>/dev/null || echo "$arch-linux-gnu")
    libdir=/usr/lib/$multiarch
    static=$PWD/.build/dist-static
    pcdir=$PWD/.build/dist-pkgconfig
    rm -rf "$static" "$pcdir" && mkdir -p "$static" "$pcdir"
    for library in yaml:libyaml-dev yajl_s:libyajl-dev z:zlib1g-dev archive:libarchive-dev nettle:nettle-dev; do
      [ -f "$libdir/lib${library%%:*}.a" ] || {
        echo "make-dist: $libdir/lib${library%%:*}.a is missing: apt-get install ${library##*:}" >&2; exit 1; }
    done
    ln -s "$libdir/libyaml.a" "$static/libyaml.a"
    # Debian ships yajl's static archive as libyajl_s.a; `-lyajl` finds it under the usual name here.
    ln -s "$libdir/libyajl_s.a" "$static/libyajl.a"
    ln -s "$libdir/libz.a" "$static/libz.a"
    echo "GROUP ( $libdir/libarchive.a $libdir/libnettle.a $libdir/libz.a )" > "$static/libarchive.a"
    write_pc() {  # NAME LIBS
      pkg-config --exists "$1" || { echo "make-dist: pkg-config does not know $1 (run make setup)" >&2; exit 1; }
      cat > "$pcdir/$1.pc" <<PC
Name: $1
Description: $1 as iapkit's release binary links it
Version: $(pkg-config --modversion "$1")
Cflags: $(pkg-config --cflags "$1")
Libs: $2
PC
    }
    write_pc zlib "-L$static -lz"
    write_pc libarchive "-L$static -larchive"
    write_pc yaml-0.1 "-L$static -lyaml"
    write_pc yajl "-L$static -lyajl"
    # libxml2 stays shared, but without the system's -L: SwiftPM reads .pc files itself and keeps the
    # -L/usr/lib/... that pkg-config would drop, which put the shared libyaml and libarchive ahead of the archives.
    write_pc libxml-2.0 "-lxml2"
    export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    build_args=(--static-swift-stdlib)
  fi
  # --gc-sections drops unreferenced code; --no-export-dynamic undoes the -export-dynamic that --static-swift-stdlib
  # passes, which would put every symbol of the executable's own objects into the dynamic symbol table (which strip
  # keeps, 13 MB); --as-needed keeps out any shared library no symbol is taken from.
  build_args+=(-Xlinker --gc-sections -Xlinker --no-export-dynamic -Xlinker --as-needed)
  ;;
Darwin)
  platform=macos-universal
  build_args=(--arch arm64 --arch x86_64)
  # A universal binary needs universal C libraries. libxml2, zlib and libarchive are part of macOS (the SDK has
  # their stubs; libarchive's headers come from Homebrew); libyaml and yajl are not, so they are compiled here for
  # both architectures from Homebrew's source tarballs and linked in statically.
  pcdir=$PWD/.build/dist-pkgconfig
  mkdir -p "$pcdir"
  sdk=$(xcrun --show-sdk-path)
  archive_prefix=$(brew --prefix libarchive)
  unpack_source() { # FORMULA FOLDER: Homebrew's source tarball of FORMULA into FOLDER/src; prints its version
    brew fetch --build-from-source "$1" >/dev/null
    rm -rf "$2" && mkdir -p "$2/src" "$2/lib" "$2/include"
    tar -xzf "$(brew --cache --build-from-source "$1")" -C "$2/src" --strip-components 1
    brew info --json=v1 "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["versions"]["stable"])'
  }
  compile_universal() { # ARCHIVE FOLDER CFLAGS...: every FOLDER/*.c for arm64 and x86_64, into the static ARCHIVE
    local archive=$1 folder=$2 source
    shift 2
    for source in "$folder"/*.c; do
      clang -arch arm64 -arch x86_64 -mmacosx-version-min=13.0 -O2 "$@" -c "$source" -o "${source%.c}.o"
    done
    libtool -static -o "$archive" "$folder"/*.o
  }
  write_universal_pc() { # NAME FOLDER LIBRARY: a .pc naming FOLDER/include and FOLDER/lib/libLIBRARY.a
    printf 'Name: %s\nDescription: %s, universal and static\nVersion: 1\nCflags: -I%s/include\nLibs: -L%s/lib -l%s\n' \
      "$1" "$3" "$2" "$2" "$3" > "$pcdir/$1.pc"
  }
  yaml_dir=$PWD/.build/dist-libyaml
  if [ ! -f "$yaml_dir/lib/libyaml.a" ]; then
    yaml_version=$(unpack_source libyaml "$yaml_dir")
    compile_universal "$yaml_dir/lib/libyaml.a" "$yaml_dir/src/src" -I"$yaml_dir/src/include" \
      -DYAML_VERSION_STRING="\"$yaml_version\"" -DYAML_VERSION_MAJOR="${yaml_version%%.*}" \
      -DYAML_VERSION_MINOR="$(echo "$yaml_version" | cut -d. -f2)" -DYAML_VERSION_PATCH="${yaml_version##*.}"
    cp "$yaml_dir/src/include/yaml.h" "$yaml_dir/include/"
  fi
  write_universal_pc yaml-0.1 "$yaml_dir" yaml
  yajl_dir=$PWD/.build/dist-yajl
  if [ ! -f "$yajl_dir/lib/libyajl.a" ]; then
    yajl_version=$(unpack_source yajl "$yajl_dir")
    # The headers go where their own includes look (<yajl/...>); yajl_version.h is made from its CMake template.
    mkdir -p "$yajl_dir/include/yajl"
    find "$yajl_dir/src" \( -name yajl_common.h -o -name yajl_parse.h -o -name yajl_gen.h -o -name yajl_tree.h \) \
      -exec cp {} "$yajl_dir/include/yajl/" \;
    template=$(find "$yajl_dir/src" -name 'yajl_version.h.cmake' -o -name 'yajl_version.h.in' | head -1)
    sed -e "s/\${YAJL_MAJOR}/${yajl_version%%.*}/" -e "s/\${YAJL_MINOR}/$(echo "$yajl_version" | cut -d. -f2)/" \
        -e "s/\${YAJL_MICRO}/${yajl_version##*.}/" "$template" > "$yajl_dir/include/yajl/yajl_version.h"
    compile_universal "$yajl_dir/lib/libyajl.a" "$yajl_dir/src/src" -I"$yajl_dir/include"
  fi
  write_universal_pc yajl "$yajl_dir" yajl
  cat > "$pcdir/libarchive.pc" <<PC
Name: libarchive
Description: macOS's libarchive with Homebrew's headers
Version: 3
Cflags: -I$archive_prefix/include
Libs: -L$sdk/usr/lib -larchive
PC
  cat > "$pcdir/libxml-2.0.pc" <<PC
Name: libxml-2.0
Description: macOS's libxml2
Version: 2
Cflags: -I$sdk/usr/include/libxml2
Libs: -L$sdk/usr/lib -lxml2
PC
  cat > "$pcdir/zlib.pc" <<PC
Name: zlib
Description: macOS's zlib
Version: 1
Cflags:
Libs: -L$sdk/usr/lib -lz
PC
  export PKG_CONFIG_PATH=$pcdir
  ;;
*) echo "make-dist: unsupported system $(uname -s)" >&2; exit 1 ;;
esac

name=iapkit-$version-$platform
bin_path=$(swift build -c release --product iapkit "${build_args[@]}" --show-bin-path)
if [ "$build" = 1 ]; then
  log "building $name: swift build -c release --product iapkit ${build_args[*]}"
  start=$(seconds)
  swift build -c release --product iapkit "${build_args[@]}"
  log "built in $(( $(seconds) - start )) s"
fi
binary=$bin_path/iapkit
[ -x "$binary" ] || { echo "make-dist: no binary at $binary" >&2; exit 1; }

stage=$output/stage/$name
rm -rf "$output/stage" && mkdir -p "$stage/bin" "$stage/share/iapkit"
cp "$binary" "$stage/bin/iapkit"
case "$(uname -s)" in
  Darwin) strip -S -x "$stage/bin/iapkit" ;;
  *) strip --strip-all "$stage/bin/iapkit" ;;
esac
cp -R templates schemas "$stage/share/iapkit/"
# The man page and the bash, zsh and fish completions, written from the command's own definitions where Unix and
# Homebrew look for them: swift-argument-parser's manual generator (a small tool, built for this machine) and the
# binary's --generate-completion-script. The manual's date is the archive's; its blank lines become paragraph breaks
# (.Pp), which mdoc wants.
log "writing the man page and the completions"
swift build --product generate-manual
generator=$(swift build --product generate-manual --show-bin-path)/generate-manual
day=$(python3 -c 'import sys, time; print(time.strftime("%Y-%m-%d", time.gmtime(int(sys.argv[1]))))' "$SOURCE_DATE_EPOCH")
mkdir -p "$stage/share/man/man1" "$stage/share/bash-completion/completions" "$stage/share/zsh/site-functions" \
  "$stage/share/fish/vendor_completions.d"
manual=$output/stage/manual
mkdir -p "$manual"
"$generator" "$binary" --date "$day" --output-directory "$manual"
sed 's/^$/.Pp/' "$manual/iapkit.1" > "$stage/share/man/man1/iapkit.1"
rm -rf "$manual"
"$binary" --generate-completion-script bash > "$stage/share/bash-completion/completions/iapkit"
"$binary" --generate-completion-script zsh > "$stage/share/zsh/site-functions/_iapkit"
"$binary" --generate-completion-script fish > "$stage/share/fish/vendor_completions.d/iapkit.fish"
for file in LICENSE LICENSE.md LICENSE.txt; do [ -f "$file" ] && cp "$file" "$stage/"; done
cat > "$stage/README.txt" <<TEXT
iapkit $version ($platform)

bin/iapkit is the command; it finds its templates and schemas in share/iapkit/ beside it, wherever this folder is
unpacked. Put bin/ on your PATH, or link bin/iapkit from a folder on it. \`iapkit --help\` lists the commands.
share/man/man1/iapkit.1 is the man page (man -l share/man/man1/iapkit.1); share/bash-completion, share/zsh and
share/fish hold the shell completions, to copy where your shell reads them.
TEXT

python3 scripts/dist/pack.py tar "$stage" "$output/$name.tar.gz"
python3 scripts/dist/pack.py bundle "$output/iapkit-$version.artifactbundle.zip" "$output/$name.tar.gz"
rm -rf "$output/stage"

unstripped=$(wc -c < "$binary")
log "binary: $unstripped bytes before strip"
for file in "$output/$name.tar.gz" "$output/iapkit-$version.artifactbundle.zip"; do
  log "$(wc -c < "$file") bytes  $file  sha256 $(cut -d' ' -f1 "$file.sha256")"
done
