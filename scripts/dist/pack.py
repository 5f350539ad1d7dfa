#!/usr/bin/env python3
"""Reproducible release files for `make dist` (standard library only).

  pack.py tar STAGE OUT.tar.gz           the folder STAGE as OUT.tar.gz, its top folder named after STAGE
  pack.py bundle OUT.zip ARCHIVE.tar.gz...  a SwiftPM artifact bundle (iapkit.artifactbundle/ with info.json) that
                                            holds each archive's folder as one variant

Entries are sorted, owned by 0:0, dated SOURCE_DATE_EPOCH (default 2001-01-01), with modes 0755 (folders and
executables) or 0644; gzip's header carries no time. Each OUT gets OUT.sha256 in `sha256sum` format.
"""
import gzip, hashlib, io, json, os, re, stat, sys, tarfile, zipfile

EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "978307200"))

# Swift target triples each platform's binary runs on, for the artifact bundle's info.json.
TRIPLES = {
    "linux-x86_64": ["x86_64-unknown-linux-gnu"],
    "linux-aarch64": ["aarch64-unknown-linux-gnu"],
    "linux-static-x86_64": ["x86_64-swift-linux-musl"],
    "linux-static-aarch64": ["aarch64-swift-linux-musl"],
    "macos-universal": ["arm64-apple-macosx", "x86_64-apple-macosx"],
    "macos-arm64": ["arm64-apple-macosx"],
    "macos-x86_64": ["x86_64-apple-macosx"],
}
NAME = re.compile(r"^iapkit-(?P<version>[0-9][^-]*(?:-[a-z]+[0-9.]*)?)-(?P<platform>(?:linux|macos)-.+)$")


def write_sha256(path):
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    with open(path + ".sha256", "w") as out:
        out.write("%s  %s\n" % (digest, os.path.basename(path)))


def walk(top):
    """Every path under top, sorted, folders before their contents."""
    entries = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in dirs + files:
            entries.append(os.path.join(root, name))
    return sorted(entries, key=lambda p: os.path.relpath(p, top).split(os.sep))


def mode_of(path):
    st = os.lstat(path)
    if stat.S_ISDIR(st.st_mode) or st.st_mode & 0o111:
        return 0o755
    return 0o644


def make_tar(stage, out):
    top = os.path.basename(os.path.normpath(stage))
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in [stage] + walk(stage):
            rel = os.path.relpath(path, stage)
            info = tar.gettarinfo(path, arcname=top if rel == "." else top + "/" + rel.replace(os.sep, "/"))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = EPOCH
            if info.isreg() or info.isdir():
                info.mode = mode_of(path)
            if info.isreg():
                with open(path, "rb") as data:
                    tar.addfile(info, data)
            else:
                tar.addfile(info)
    with open(out, "wb") as file:
        with gzip.GzipFile(filename="", mode="wb", fileobj=file, mtime=0, compresslevel=9) as gz:
            gz.write(raw.getvalue())
    write_sha256(out)


def make_bundle(out, archives):
    variants, version, members = [], None, []
    for archive in archives:
        folder = os.path.basename(archive)[: -len(".tar.gz")]
        match = NAME.match(folder)
        if not match or match.group("platform") not in TRIPLES:
            sys.exit("pack: %s is not named iapkit-VERSION-PLATFORM.tar.gz with a known platform" % archive)
        if version and match.group("version") != version:
            sys.exit("pack: %s is not version %s" % (archive, version))
        version = match.group("version")
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                if member.isreg():
                    members.append((member.name, member.mode, tar.extractfile(member).read()))
                elif member.isdir():
                    members.append((member.name + "/", member.mode, None))
        variants.append({"path": folder + "/bin/iapkit", "supportedTriples": TRIPLES[match.group("platform")]})
    info = {
        "schemaVersion": "1.0",
        "artifacts": {"iapkit": {"version": version, "type": "executable", "variants": variants}},
    }
    stamp = __import__("time").gmtime(max(EPOCH, 315532800))[:6]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        def add(name, mode, data):
            entry = zipfile.ZipInfo("iapkit.artifactbundle/" + name, date_time=stamp)
            entry.create_system = 3  # Unix, so the modes below are kept
            if data is None:
                entry.external_attr = (stat.S_IFDIR | mode) << 16 | 0x10
                bundle.writestr(entry, b"")
            else:
                entry.external_attr = (stat.S_IFREG | mode) << 16
                entry.compress_type = zipfile.ZIP_DEFLATED
                bundle.writestr(entry, data)
        add("", 0o755, None)
        add("info.json", 0o644, (json.dumps(info, indent=2) + "\n").encode())
        for name, mode, data in sorted(members):
            add(name, mode, data)
    write_sha256(out)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "tar":
        make_tar(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and sys.argv[1] == "bundle":
        make_bundle(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
