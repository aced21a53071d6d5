"""The live server the browser and API tests talk to answers at once: its
request handler turns Nagle's algorithm off (tests/conftest.py), so no
response waits for the client's delayed acknowledgement."""

from __future__ import annotations

import socket

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_live_servers_connections_send_without_waiting_for_an_acknowledgement(live_server):
    handler_class = live_server.thread.httpd.RequestHandlerClass
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.create_connection(listener.getsockname()):
        accepted, _address = listener.accept()
        with accepted:
            # What the live server's handler does first with each
            # connection it is given, before it reads a request.
            handler = handler_class.__new__(handler_class)
            handler.request = accepted
            handler.setup()
            try:
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            finally:
                handler.finish()
