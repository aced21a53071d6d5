"""A webhook sent over https goes to the address that was checked, and the
server's certificate is checked against the webhook's name, not against
that address: a real TLS server on the loopback, with a certificate made for
the test, answers under a name the test's resolver gives."""

from __future__ import annotations

import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from games.services import webhook_http

from .test_webhooks import _resolver

NAME = "hooks.example.com"


def _certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for ``name``, and its key."""
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


class _TlsServer:
    """An https server on the loopback that notes the server name each
    client asked for and the Host header of each request."""

    def __init__(self, cert: Path, key: Path):
        self.cert = cert
        self.names: list[str | None] = []
        self.hosts: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.hosts.append(self.headers["Host"])
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        context.sni_callback = lambda _socket, name, _context: self.names.append(name)
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.socket = context.wrap_socket(self.http.socket, server_side=True)
        self.port = self.http.server_address[1]
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def trusting(monkeypatch):
    """The client trusts ``cert`` in place of the system's certificates."""

    def trust(cert: Path) -> None:
        monkeypatch.setattr(
            webhook_http._ServerNameContext,
            "load_default_certs",
            lambda context, purpose=None: context.load_verify_locations(cafile=str(cert)),
        )

    return trust


@pytest.fixture
def served(tmp_path):
    servers: list[_TlsServer] = []

    def serve(certificate_name: str) -> _TlsServer:
        server = _TlsServer(*_certificate(tmp_path, certificate_name))
        servers.append(server)
        return server

    yield serve
    for server in servers:
        server.stop()


def test_an_https_webhook_goes_to_the_checked_address_under_its_name(monkeypatch, settings, trusting, served):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    server = served(NAME)
    trusting(server.cert)
    # The second answer would be a rebinding DNS server's: never asked.
    asked = _resolver(monkeypatch, [["127.0.0.1"], ["127.0.0.9"]])
    answer = webhook_http.post(f"https://{NAME}:{server.port}/tls", b"{}", {"Content-Type": "application/json"})
    assert answer.status == 200
    assert asked == [NAME]
    assert server.names == [NAME]
    assert server.hosts == [f"{NAME}:{server.port}"]


def test_a_certificate_for_another_name_is_refused_and_nothing_is_sent(monkeypatch, settings, trusting, served):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    server = served("other.example.com")
    trusting(server.cert)
    _resolver(monkeypatch, [["127.0.0.1"]])
    with pytest.raises(OSError, match="certificate"):
        webhook_http.post(f"https://{NAME}:{server.port}/tls", b"{}", {"Content-Type": "application/json"})
    assert server.hosts == []
