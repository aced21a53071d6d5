"""A webhook receiver for the tests: a real HTTP server on 127.0.0.1, in a
thread, written the way README ("Chat webhooks") tells a receiver to be:
it checks the signature of a signed delivery with the documented recipe
(written out here, not imported from the app) and handles each delivery id
once, answering 2xx to one it has seen. A delivery it answered with
anything but 2xx it has not handled: the sender will try it again.

It can answer with another status, and hold a request open (after it has
handled it, as a receiver that is slow to answer does) until the test lets
it go: the sender on the other end is then stuck mid-delivery."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def documented_signature(secret: str, timestamp: str, body: bytes) -> str:
    """README's recipe: "sha256=" and the hex HMAC-SHA256, keyed with the
    secret, of the timestamp, a full stop and the raw body."""
    return "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


@dataclass
class Arrival:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool | None  # None: an unsigned kind (Discord, Slack)
    duplicate: bool
    status: int = 200  # what the receiver answered

    @property
    def json(self) -> dict:
        return json.loads(self.body)

    @property
    def delivery(self) -> str:
        return self.headers.get("X-Versailles-Delivery", "")


@dataclass
class Receiver:
    # Path -> the signing secret of the webhook posting there.
    secrets: dict[str, str] = field(default_factory=dict)
    # Path -> the status to answer with (200 for any other).
    statuses: dict[str, int] = field(default_factory=dict)
    # A request this says True of is held open, once, until release().
    hold: Callable[[Arrival], bool] | None = None
    arrivals: list[Arrival] = field(default_factory=list)
    # Each delivery id handled (answered 2xx the first time), with what it
    # said, in order of arrival.
    handled: dict[str, Arrival] = field(default_factory=dict)
    seen: Counter = field(default_factory=Counter)
    held: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver._arrived(self, body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def release(self) -> None:
        self.released.set()

    def _arrived(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        headers = {name: value for name, value in handler.headers.items()}
        secret = self.secrets.get(handler.path)
        verified = None
        if secret is not None:
            given = headers.get("X-Versailles-Signature", "")
            verified = hmac.compare_digest(
                documented_signature(secret, headers.get("X-Versailles-Timestamp", ""), body), given
            )
        with self.lock:
            status = 401 if verified is False else self.statuses.get(handler.path, 200)
            delivery = headers.get("X-Versailles-Delivery", "")
            arrival = Arrival(handler.path, headers, body, verified, duplicate=delivery in self.handled, status=status)
            self.arrivals.append(arrival)
            self.seen[delivery] += 1
            # A forged or broken signature is refused and handled not at all;
            # a delivery answered with a failure is not handled either.
            if 200 <= status < 300 and not arrival.duplicate:
                self.handled[delivery] = arrival
            hold = self.hold is not None and not self.held.is_set() and self.hold(arrival)
            if hold:
                self.held.set()
        if hold:
            self.released.wait(timeout=120)
        try:
            handler.send_response(status)
            handler.send_header("Content-Length", "2")
            handler.end_headers()
            handler.wfile.write(b"ok")
        except OSError:
            pass  # the sender is gone (killed mid-delivery)

    def bodies(self, path: str) -> list[Arrival]:
        return [a for a in self.arrivals if a.path == path]

