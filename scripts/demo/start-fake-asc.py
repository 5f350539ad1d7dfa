#!/usr/bin/env python3
"""Starts the project's fake App Store Connect in the background with a throwaway API key and one app, and prints
the shell exports that point `iapkit asc` at it. For trying `asc pull | plan | push` without an Apple account.

usage: eval "$(python3 scripts/demo/start-fake-asc.py --bundle-id com.example.app [--bundle-id ...] --dir DIR)"
       ... iapkit asc push --yes ...
       kill "$(cat DIR/fake-asc.pid)"
"""
import argparse, json, os, shlex, subprocess, sys, urllib.request

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

parser = argparse.ArgumentParser()
parser.add_argument("--bundle-id", required=True, action="append", help="an app the fake holds (repeatable)")
parser.add_argument("--dir", required=True, help="where the key, the log and the pid file go")
args = parser.parse_args()
os.makedirs(args.dir, exist_ok=True)

key = ec.generate_private_key(ec.SECP256R1())
key_path = os.path.join(args.dir, "AuthKey_DEMOKEY01.p8")
with open(key_path, "wb") as f:
    f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
public_path = os.path.join(args.dir, "public.pem")
with open(public_path, "wb") as f:
    f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fake = subprocess.Popen([sys.executable, os.path.join(here, "..", "Tests", "FakeAppStoreConnect", "fake_asc.py"),
                         "--port", "0", "--key-id", "DEMOKEY01", "--issuer-id", "demo-issuer", "--public-key", public_path],
                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=open(os.path.join(args.dir, "fake-asc.log"), "w"),
                        text=True, start_new_session=True)
url = fake.stdout.readline().split()[-1]
with open(os.path.join(args.dir, "fake-asc.pid"), "w") as f:
    f.write(str(fake.pid))
for bundle_id in args.bundle_id:
    request = urllib.request.Request(url + "/__fake/apps", data=json.dumps({"name": "Demo", "bundleId": bundle_id}).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
for name, value in [("ASC_API_URL", url), ("ASC_KEY_ID", "DEMOKEY01"), ("ASC_ISSUER_ID", "demo-issuer"),
                    ("ASC_PRIVATE_KEY_PATH", key_path)]:
    print("export %s=%s" % (name, shlex.quote(value)))
