#!/usr/bin/env python3
"""Points Plugins/IAPKitPlugin/Package.swift at a release's artifact bundle (standard library only).

  plugin-manifest.py --version V --repository OWNER/NAME --checksum SHA256 [--manifest PATH]

Sets `version`, `checksum` and `releases` (https://github.com/OWNER/NAME/releases/download) in the manifest; the
release workflow runs it after merging every platform's bundle.
"""
import argparse, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--version", required=True)
parser.add_argument("--repository", required=True)
parser.add_argument("--checksum", required=True)
parser.add_argument("--manifest", default=os.path.join(ROOT, "Plugins", "IAPKitPlugin", "Package.swift"))
options = parser.parse_args()
if not re.fullmatch(r"[0-9a-f]{64}", options.checksum):
    sys.exit("plugin-manifest: %r is not a SHA-256" % options.checksum)
text = open(options.manifest).read()
for name, value in [("version", options.version.lstrip("v")), ("checksum", options.checksum),
                    ("releases", "https://github.com/%s/releases/download" % options.repository)]:
    text, count = re.subn(r'^let %s = ".*"$' % name, 'let %s = "%s"' % (name, value), text, flags=re.M)
    if count != 1:
        sys.exit("plugin-manifest: no `let %s = \"...\"` line in %s" % (name, options.manifest))
open(options.manifest, "w").write(text)
print("plugin-manifest: %s now names %s %s" % (options.manifest, options.version, options.checksum))
