#!/usr/bin/env python3
"""A fake App Store Connect API for iapkit's tests: the operations `iapkit asc` uses, with Apple's paths, JWT
authentication, JSON:API documents, validation of every request body, and the behaviour rules described in
README.md. Binds 127.0.0.1 only; prints `listening http://127.0.0.1:PORT`; stops on SIGTERM or stdin EOF.

usage: fake_asc.py --port 0 --key-id KID --issuer-id ISS --public-key PEM [--openapi PATH] [--page-size N]
                   [--state-file F] [--log-requests]
"""

import argparse
import os
import signal
import stat
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fakeasc.core.http import Server  # noqa: E402
from fakeasc.service import FakeASC  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--key-id", required=True)
    p.add_argument("--issuer-id", required=True)
    p.add_argument("--public-key", required=True, help="PEM file with the API key's P-256 public key")
    p.add_argument("--openapi", help="App Store Connect OpenAPI document; validates against it when given")
    p.add_argument("--page-size", type=int, help="default page size when a request has no limit (default 50)")
    p.add_argument("--state-file", help="JSON file the state is loaded from at start and saved to at exit")
    p.add_argument("--log-requests", action="store_true",
                   help="write a line per request to standard error (its errors are written there either way)")
    args = p.parse_args()
    with open(args.public_key, "rb") as f:
        pem = f.read()
    fake = FakeASC(args.key_id, args.issuer_id, pem, openapi=args.openapi, page_size=args.page_size,
                   state_file=args.state_file)
    server = Server(fake, args.port)
    server.log_requests = args.log_requests
    fake.base_url = "http://127.0.0.1:%d" % server.server_address[1]
    stop = threading.Event()

    def shutdown(*_):
        stop.set()
    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)

    def watch_stdin():  # the fake dies with the test process that holds its stdin
        try:
            while sys.stdin.buffer.read(65536):
                pass
        except Exception:
            pass
        stop.set()
    # Only a pipe ties the fake to its parent; started with /dev/null as stdin it runs until SIGTERM.
    try:
        if stat.S_ISFIFO(os.fstat(sys.stdin.fileno()).st_mode):
            threading.Thread(target=watch_stdin, daemon=True).start()
    except (OSError, ValueError):
        pass
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    print("listening %s" % fake.base_url, flush=True)
    while not stop.wait(0.2):
        pass
    server.shutdown()
    fake.save()


if __name__ == "__main__":
    main()
