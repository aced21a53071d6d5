"""Waits and the event stream as production serves them (gunicorn with
uvicorn's worker, tests/api/asgi_server.py): a decision made by another
process ends a wait and sends an event, and a hundred waiting clients
leave the server free to answer others at once."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.api.asgi_server import asgi_server
from tests.api.helpers import api_tokens
from tests.factories import play_steps, started_game

pytestmark = [pytest.mark.heavy, pytest.mark.django_db(transaction=True)]


def get(url: str, secret: str | None = None, headers: dict | None = None, timeout: float = 60):
    request = urllib.request.Request(url, headers={**(headers or {})})
    if secret:
        request.add_header("Authorization", f"Bearer {secret}")
    return urllib.request.urlopen(request, timeout=timeout)


def in_a_second(action) -> threading.Timer:
    timer = threading.Timer(1.0, action)
    timer.start()
    return timer


def test_a_decision_of_another_process_ends_a_wait(tmp_path):
    game = started_game(4)
    secrets = api_tokens(game)
    seen = game.version
    with asgi_server(tmp_path) as server:
        # This test's process moves the game, as a worker or another web machine would.
        in_a_second(lambda: play_steps(game, 1))
        started = time.monotonic()
        with get(f"{server.url}/api/v1/seat?wait={seen}", secrets[0]) as answer:
            view = json.load(answer)
        waited = time.monotonic() - started
    assert view["game"]["version"] > seen
    assert 0.9 <= waited < 5


def test_a_hundred_waiting_clients_leave_the_server_free_for_others(tmp_path):
    # A WSGI server's threads would each be held by one wait: a hundred
    # waits are more than any pool of them (the compose file's had 2 x 4).
    game = started_game(4)
    secrets = api_tokens(game)
    seen = game.version
    with asgi_server(tmp_path) as server, ThreadPoolExecutor(100) as pool:
        waits = [
            pool.submit(lambda n=n: json.load(get(f"{server.url}/api/v1/seat?wait={seen}", secrets[n % 4])))
            for n in range(100)
        ]
        time.sleep(3)  # every wait arrived and is waiting
        assert not any(wait.done() for wait in waits)
        started = time.monotonic()
        get(f"{server.url}/api/v1/games/{game.public_id}").read()
        answered_in = time.monotonic() - started
        play_steps(game, 1)
        views = [wait.result(timeout=30) for wait in waits]
    assert answered_in < 2
    assert all(view["game"]["version"] > seen for view in views)


def events(stream, count: int) -> list[tuple[str, dict]]:
    """The next ``count`` events of an open stream: (id, data)."""
    found: list[tuple[str, dict]] = []
    event_id, data = None, None
    for raw in stream:
        line = raw.decode().rstrip("\n")
        if line.startswith("id: "):
            event_id = line[4:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            found.append((event_id, data))
            event_id, data = None, None
            if len(found) == count:
                return found
    raise AssertionError(f"the stream ended after {found}")


def test_the_event_stream_sends_the_game_and_then_each_new_version_with_its_entries(tmp_path):
    game = started_game(4)
    secrets = api_tokens(game)
    with asgi_server(tmp_path) as server:
        with get(f"{server.url}/api/v1/seat/events", secrets[0]) as stream:
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            [(first_id, first)] = events(stream, 1)
            assert first_id == str(game.version) and first["view"]["seat"]["position"] == 0
            assert first["entries"] == []
            in_a_second(lambda: play_steps(game, 1))
            [(next_id, moved)] = events(stream, 1)
        assert int(next_id) == moved["version"] > first["version"]
        assert moved["entries"] and all(first["version"] < entry["seq"] <= moved["version"]
                                        for entry in moved["entries"])
        # Reconnecting with the last id it had, a client misses nothing.
        with get(f"{server.url}/api/v1/seat/events", secrets[0], {"Last-Event-ID": first_id}) as stream:
            [(again_id, again)] = events(stream, 1)
        assert again_id == next_id and again["entries"] == moved["entries"]
