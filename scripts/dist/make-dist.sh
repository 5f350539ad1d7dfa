#!/usr/bin/env bash
# `make dist`: the relocatable release archive and the SwiftPM plugin's artifact bundle.
#
#   scripts/dist/make-dist.sh [--output DIR] [--swift-sdk NAME] [--no-build]
#
# Writes into DIR (default dist/):
#   iapkit-VERSION-PLATFORM.tar.gz         iapkit-VERSION-PLATFORM/{bin/iapkit, share/iapkit/{templates,schemas}, ...}
#   iapkit-VERSION-PLATFORM.tar.gz.sha256  in `sha256sum` format
#   iapkit-VERSION.artifactbundle.zip      (+ .sha256) the binary target of Plugins/IAPKitPlugin, with its info.json
#
# PLATFORM is linux-x86_64 or linux-aarch64 (the Swift runtime and Foundation linked in with
# --static-swift-stdlib; libyaml, zlib and libarchive linked in from Debian's static libraries), linux-static-ARCH
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
    prefix=${IAPKIT_MUSL_PREFIX:?set IAPKIT_MUSL_PREFIX to the folder with the musl builds of libyaml, libarchive, libxml2 and zlib}
    # The module maps' `link "archive"` and `link "xml2"` name one library each; linker scripts of the same name
    # bring in the static libraries those need, whichever of them the prefix has.
    groups=$PWD/.build/dist-musl-libs
    rm -rf "$groups" && mkdir -p "$groups"
    present() { for name in "$@"; do [ -f "$prefix/lib/lib$name.a" ] && printf ' %s' "$prefix/lib/lib$name.a"; done; }
    echo "GROUP ($(present archive z lzma zstd lz4 bz2 acl expat xml2 crypto))" > "$groups/libarchive.a"
    echo "GROUP ($(present xml2 lzma z))" > "$groups/libxml2.a"
    ln -s "$prefix/lib/libyaml.a" "$groups/libyaml.a"
    ln -s "$prefix/lib/libz.a" "$groups/libz.a"
    build_args=(--swift-sdk "$swift_sdk" -Xcc "-I$prefix/include" -Xcc "-I$prefix/include/libxml2" -Xlinker "-L$groups")
    export PKG_CONFIG_PATH=$groups   # no .pc files there: the include and library folders above are the whole story
  else
    platform=linux-$arch
    # Static C libraries: pkg-config files of our own point SwiftPM at a folder that holds only Debian's static
    # archives, searched before the system's, so `-lyaml` (from pkg-config and from the module map's `link "yaml"`)
    # finds libyaml.a. libarchive.a there is a linker script that adds what its zip writer needs (nettle for
    # encrypted zips and HMAC, zlib); iapkit writes no other format. libxml2 stays shared: Debian builds it with ICU,
    # and its static archive would bring ICU's 30 MB of data back in (see README, Install).
    multiarch=$(gcc -print-multiarch 2>/dev/null || echo "$arch-linux-gnu")
    libdir=/usr/lib/$multiarch
    static=$PWD/.build/dist-static
    pcdir=$PWD/.build/dist-pkgconfig
    rm -rf "$static" "$pcdir" && mkdir -p "$static" "$pcdir"
    for library in yaml:libyaml-dev z:zlib1g-dev archive:libarchive-dev nettle:nettle-dev; do
      [ -f "$libdir/lib${library%%:*}.a" ] || {
        echo "make-dist: $libdir/lib${library%%:*}.a is missing: apt-get install ${library##*:}" >&2; exit 1; }
    done
    ln -s "$libdir/libyaml.a" "$static/libyaml.a"
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
  # their stubs; libarchive's headers come from Homebrew); libyaml is not, so it is compiled here for both
  # architectures from Homebrew's source tarball and linked in statically.
  pcdir=$PWD/.build/dist-pkgconfig
  mkdir -p "$pcdir"
  sdk=$(xcrun --show-sdk-path)
  archive_prefix=$(brew --prefix libarchive)
  yaml_dir=$PWD/.build/dist-libyaml
  if [ ! -f "$yaml_dir/lib/libyaml.a" ]; then
    brew fetch --build-from-source libyaml >/dev/null
    tarball=$(brew --cache --build-from-source libyaml)
    rm -rf "$yaml_dir" && mkdir -p "$yaml_dir/src" "$yaml_dir/lib" "$yaml_dir/include"
    tar -xzf "$tarball" -C "$yaml_dir/src" --strip-components 1
    yaml_version=$(brew info --json=v1 libyaml | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["versions"]["stable"])')
    (cd "$yaml_dir/src" && for source in src/*.c; do
       clang -arch arm64 -arch x86_64 -mmacosx-version-min=13.0 -O2 -Iinclude \
         -DYAML_VERSION_STRING="\"$yaml_version\"" -DYAML_VERSION_MAJOR="${yaml_version%%.*}" \
         -DYAML_VERSION_MINOR="$(echo "$yaml_version" | cut -d. -f2)" -DYAML_VERSION_PATCH="${yaml_version##*.}" \
         -c "$source" -o "${source%.c}.o"
     done && libtool -static -o "$yaml_dir/lib/libyaml.a" src/*.o)
    cp "$yaml_dir/src/include/yaml.h" "$yaml_dir/include/"
  fi
  cat > "$pcdir/yaml-0.1.pc" <<PC
Name: yaml-0.1
Description: libyaml, universal and static
Version: 0.2
Cflags: -I$yaml_dir/include
Libs: -L$yaml_dir/lib -lyaml
PC
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
for file in LICENSE LICENSE.md LICENSE.txt; do [ -f "$file" ] && cp "$file" "$stage/"; done
cat > "$stage/README.txt" <<TEXT
iapkit $version ($platform)

bin/iapkit is the command; it finds its templates and schemas in share/iapkit/ beside it, wherever this folder is
unpacked. Put bin/ on your PATH, or link bin/iapkit from a folder on it. \`iapkit --help\` lists the commands.
TEXT

python3 scripts/dist/pack.py tar "$stage" "$output/$name.tar.gz"
python3 scripts/dist/pack.py bundle "$output/iapkit-$version.artifactbundle.zip" "$output/$name.tar.gz"
rm -rf "$output/stage"

unstripped=$(wc -c < "$binary")
log "binary: $unstripped bytes before strip"
for file in "$output/$name.tar.gz" "$output/iapkit-$version.artifactbundle.zip"; do
  log "$(wc -c < "$file") bytes  $file  sha256 $(cut -d' ' -f1 "$file.sha256")"
done
