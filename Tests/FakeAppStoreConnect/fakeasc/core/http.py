"""The HTTP side: a threaded server on 127.0.0.1, and the dispatcher that routes each request to the control
API, the upload and asset endpoints, or an API operation (authentication, rate limit, faults, query and body
contract, the handler, response validation, request log)."""

import calendar
import datetime
import email.utils
import json
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import control
from .auth import authenticate
from .errors import ApiError, error_object
from .faults import fault_error
from .jsonapi import Text, include_spec

MAX_BODY = 32 * 1024 * 1024  # request bodies above this are refused unread (413)


class Call:
    """One API request as a handler sees it."""
    __slots__ = ("op", "id", "q", "body", "path", "method")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeAppStoreConnect/1"
    timeout = 60  # an idle keep-alive connection is closed after this, so no connection thread lives forever
    # Headers and body go out in two writes: without TCP_NODELAY the body waits for the client's delayed ACK of the
    # headers, 40 ms on every answer of a kept-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        # Quiet unless asked (--log-requests): a test that fails shows this log; the request log is at /__fake/requests.
        if self.server.log_requests:
            super().log_message(fmt, *args)

    def do_GET(self):
        self.server.app_handle(self)

    do_POST = do_PATCH = do_DELETE = do_PUT = do_GET


class Server(ThreadingHTTPServer):
    daemon_threads = True
    log_requests = False
    request_queue_size = 128  # the listen backlog: with socketserver's 5, a burst of connections waits for SYN retries

    def __init__(self, fake, port=0):
        self.fake = fake
        super().__init__(("127.0.0.1", port or 0), Handler)  # loopback only

    def app_handle(self, h):
        try:
            Dispatcher(self.fake, h).run()
        except (BrokenPipeError, ConnectionResetError):
            pass


class Dispatcher:
    def __init__(self, fake, h):
        self.fake, self.h = fake, h

    def send(self, status, doc=None, headers=None, raw=None):
        h = self.h
        payload = raw if raw is not None else (json.dumps(doc).encode() if doc is not None else b"")
        today = self.fake.settings.get("today")
        if today:
            # The Date header tells clients the fake's today: noon of that day, GMT.
            stamp = calendar.timegm(datetime.date.fromisoformat(today).timetuple()) + 12 * 3600
            h.date_time_string = lambda timestamp=None: email.utils.formatdate(stamp, usegmt=True)
        h.send_response(status)
        if doc is not None:
            h.send_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(payload)))
        h.end_headers()
        if payload and h.command != "HEAD":
            h.wfile.write(payload)

    def read_body(self):
        """The request body, or None when its length is missing a number or too large (the connection is closed
        then, since the unread body can't be skipped)."""
        text = self.h.headers.get("Content-Length") or "0"
        if not text.isdigit() or int(text) > MAX_BODY:
            self.h.close_connection = True
            return None
        n = int(text)
        return self.h.rfile.read(n) if n else b""

    def run(self):
        fake = self.fake
        url = urllib.parse.urlsplit(self.h.path)
        path = url.path
        method = self.h.command
        body = self.read_body()
        if body is None:
            return self.send(413, {"errors": [error_object(413, "ENTITY_TOO_LARGE", "The request entity is too large",
                                                           "Content-Length must be a number up to %d" % MAX_BODY)]})
        if path.startswith("/__fake/"):
            status, doc = control.handle(fake, method, path[len("/__fake/"):], body)
            return self.send(status, doc)
        if path.startswith("/__assets/") and method == "GET":
            blob = fake.assets.get(path.split("/")[2])
            if blob is None:
                return self.send(404, raw=b"no such asset", headers={"Content-Type": "text/plain"})
            return self.send(200, raw=blob, headers={"Content-Type": "application/octet-stream"})
        if path.startswith("/__upload/"):
            parts = path.split("/")
            status, msg = fake.receive_upload(parts[2], int(parts[3]) if len(parts) > 3 and parts[3].isdigit() else -1,
                                              self.h.headers, body) if method == "PUT" else (405, "PUT only")
            with fake.lock:
                fake.log.add({"method": method, "path": path, "query": {}, "status": status, "write": True,
                              "operation": "upload", "include": [], "id": parts[2] if len(parts) > 2 else None,
                              "keyId": None})
            return self.send(status, raw=msg.encode(), headers={"Content-Type": "text/plain"})
        pairs = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
        q = {}
        for k, v in pairs:
            q[k] = v if k not in q else q[k] + "," + v
        status, doc, headers, call = self.api(method, path, q, body)
        with fake.lock:
            fake.log.add({"method": method, "path": path, "query": q, "status": status,
                          "write": method != "GET", "operation": call["operation"],
                          "fault": headers.pop("X-Fake-Fault", None), "include": list(include_spec(q)),
                          "id": call["id"], "keyId": call["keyId"]})
            delay = fake.settings["latencyMs"] or 0
            if method != "GET":
                fake.writes_seen += 1
            held = method != "GET" and fake.settings.get("holdWrite") == fake.writes_seen
        if delay:
            time.sleep(delay / 1000.0)  # outside the lock: concurrent requests overlap their latency
        # A test interrupts the client at a point it chooses: write N is done here, its answer waits until the test
        # clears holdWrite (or the client is gone).
        while held and fake.settings.get("holdWrite") == fake.writes_seen:
            time.sleep(0.01)
        if isinstance(doc, Text):
            return self.send(status, raw=doc.body.encode(), headers=dict(headers, **{"Content-Type": doc.content_type}))
        self.send(status, doc, headers)

    def route(self, method, path):
        """(operationId, handler name, path id) of the operation, or an ApiError: 404 unknown path, 405 method."""
        path_known = False
        for m, rx, op_id, handler in self.fake.routes:
            match = rx.match(path)
            if match:
                path_known = True
                if m == method:
                    return op_id, handler, match.group(1) if rx.groups else None
        if path_known:
            raise ApiError(405, "METHOD_NOT_ALLOWED", "The request method is not allowed for this resource",
                           "%s is not allowed on %s" % (method, path))
        raise ApiError(404, "NOT_FOUND", "The specified resource does not exist", "The path %s does not exist" % path)

    def api(self, method, path, q, body):
        """Answers an API request: (status, document, headers, {"operation", "id", "keyId"} for the log)."""
        fake = self.fake
        headers = {}
        call = {"operation": None, "id": None, "keyId": None}
        op = None
        try:
            op, handler, id_ = self.route(method, path)
            call.update(operation=op, id=id_)
            call["keyId"] = authenticate(self.h.headers.get("Authorization") or "", fake.keys, fake.issuer_id,
                                         fake.settings.get("maxTokenAgeSeconds"))
            with fake.lock:
                now = time.time()
                allowed, remaining = fake.budget.take(call["keyId"], now)
                headers["X-Rate-Limit"] = "user-hour-lim:%d;user-hour-rem:%d;" % (fake.budget.limit, remaining)
                if not allowed:
                    retry = ({"Retry-After": str(fake.budget.retry_after(call["keyId"], now))}
                             if fake.settings.get("rateLimitRetryAfter", True) else {})
                    raise ApiError(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                                   "The request budget of this API key is used up", headers=retry)
                fault = fake.faults.match(method, path)
            if fault and fault["when"] == "before":
                raise fault_error(fault, headers)
            errs = fake.contract.query_errors(op, q)
            if errs:
                raise ApiError(400, errs[0][0], "A parameter has an invalid value", errors=[
                    error_object(400, code, "A parameter has an invalid value", detail, parameter=name)
                    for code, name, detail in errs])
            c = Call()
            c.op, c.id, c.q, c.path, c.method, c.body = op, id_, q, path, method, None
            if fake.contract.takes_body(op):
                c.body = self.parse_body(op, body)
            with fake.lock:
                fake.operation = op  # the form some resources answer in depends on it (promotional images)
                try:
                    status, doc = getattr(fake, handler)(c)
                finally:
                    fake.operation = None
                if doc is not None and not isinstance(doc, Text):
                    doc = json.loads(json.dumps(doc))  # detach from the store before validating outside the lock
            if fault and fault["when"] == "after":
                raise fault_error(fault, headers)
        except ApiError as e:
            headers.update(e.headers)
            status, doc = e.status, e.document()
        if "X-Rate-Limit" not in headers:  # refused before it was counted (401, unknown path): the key's figures
            with fake.lock:
                headers["X-Rate-Limit"] = fake.budget.header(call["keyId"] or fake.key_id, time.time())
        if isinstance(doc, Text):
            pass  # the document types the one-time codes' CSV as plain text: nothing to validate
        elif doc is not None and op is not None and not headers.get("X-Fake-Fault"):
            problem = fake.contract.response_error(op, status, doc, newer=fake.settings.get("unknownAttributes"))
            if problem:
                status, doc = 500, {"errors": [error_object(500, "FAKE_CONTRACT_VIOLATION",
                                                            "The fake produced a response its contract forbids",
                                                            problem)]}
            elif (fake.settings.get("omitLastPageLinks") and isinstance(doc.get("data"), list)
                  and "next" not in doc.get("links", {})):
                # As some recorded App Store Connect answers are: a last page without top-level links (after the
                # contract check, which the document's `links: required` would fail).
                doc = {k: v for k, v in doc.items() if k != "links"}
        return status, doc, headers, call

    def parse_body(self, op, body):
        ctype = (self.h.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "The request entity has an unsupported media type",
                           "Request bodies must be sent as application/json, not '%s'" % ctype)
        try:
            doc = json.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise ApiError(422, "ENTITY_UNPROCESSABLE", "The request entity is not valid JSON", str(e))
        errors = self.fake.contract.body_errors(op, doc)
        if errors:
            raise ApiError(409, errors[0].code, "The provided entity is invalid", errors=[
                error_object(409, e.code, "The provided entity is invalid", e.detail, pointer=e.pointer) for e in errors])
        return doc
