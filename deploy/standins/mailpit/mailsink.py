"""An SMTP sink standing in for Mailpit.

Every message received on port 1025 is written to /data as one file; port
8025 answers the part of Mailpit's API that the compose tests use:
GET /api/v1/messages, GET /api/v1/message/<ID>/raw and DELETE /api/v1/messages.
"""

import json
import os
import signal
import threading
import time
from email import message_from_bytes, policy
from email.utils import getaddresses, parseaddr
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from aiosmtpd.controller import Controller

STORE = Path(os.environ.get("MAILSINK_DIR", "/data"))
lock = threading.Lock()


class KeepEveryMessage:
    async def handle_DATA(self, server, session, envelope):
        with lock:
            number = len(list(STORE.glob("*.eml"))) + 1
            # Written aside, then renamed: a reader never sees half a message.
            partial = STORE / f"{number:08d}.part"
            partial.write_bytes(envelope.original_content or envelope.content)
            partial.rename(STORE / f"{number:08d}.eml")
        return "250 Message accepted for delivery"


def summary(path):
    message = message_from_bytes(path.read_bytes(), policy=policy.default)
    return {
        "ID": path.stem,
        "MessageID": str(message.get("Message-ID", "")).strip("<>"),
        "Subject": str(message.get("Subject", "")),
        "From": {"Address": parseaddr(str(message.get("From", "")))[1]},
        "To": [{"Name": name, "Address": addr} for name, addr in getaddresses([str(message.get("To", ""))])],
        "Created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(path.stat().st_mtime)),
    }


class MailpitApi(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.split("?")[0] == "/api/v1/messages":
            paths = sorted(STORE.glob("*.eml"), reverse=True)
            body = {"total": len(paths), "messages": [summary(p) for p in paths]}
            return self.reply(200, json.dumps(body).encode(), "application/json")
        parts = self.path.strip("/").split("/")
        if len(parts) == 5 and parts[:3] == ["api", "v1", "message"] and parts[4] == "raw":
            path = STORE / f"{parts[3]}.eml"
            if parts[3].isdigit() and path.exists():
                return self.reply(200, path.read_bytes(), "text/plain")
        if self.path in ("/", "/livez", "/readyz"):
            return self.reply(200, b"ok\n", "text/plain")
        self.reply(404, b"not found\n", "text/plain")

    def do_DELETE(self):
        if self.path == "/api/v1/messages":
            with lock:
                for path in STORE.glob("*.eml"):
                    path.unlink()
            return self.reply(200, b"ok", "text/plain")
        self.reply(404, b"not found\n", "text/plain")

    def reply(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


def main():
    STORE.mkdir(parents=True, exist_ok=True)
    smtp = Controller(KeepEveryMessage(), hostname="0.0.0.0", port=1025)
    smtp.start()
    http = ThreadingHTTPServer(("0.0.0.0", 8025), MailpitApi)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=http.shutdown).start())
    print("mail sink: SMTP on 1025, API on 8025", flush=True)
    http.serve_forever()
    smtp.stop()


if __name__ == "__main__":
    main()
