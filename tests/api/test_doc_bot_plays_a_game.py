"""A bot that reads nothing but the served OpenAPI document
(tests/api/doc_bot.py) plays a whole game against three computer players
on the event stream, as production serves it (tests/api/asgi_server.py).
Mid-game it "crashes" right after sending a decision, starts afresh and
sends the same decision with the same Idempotency-Key: it hears the first
answer again, and the decision counts once. Every answer and every event
fits the document."""

from __future__ import annotations

import re
import threading
import uuid
from pathlib import Path

import pytest

from games.models import ActionRecord, Game, Seat
from games.services.api_tokens import api_token_create
from games.services.setup import game_create, seat_accept
from tests.api.asgi_server import asgi_server
from tests.api.doc_bot import DocBot
from tests.factories import computer_turns

pytestmark = [pytest.mark.heavy, pytest.mark.django_db(transaction=True)]

BOT = Path(__file__).with_name("doc_bot.py")
CRASH_AFTER = 15


def game_against_computers() -> tuple[Game, str]:
    game = game_create(
        host_name="Bot", host_email="bot@example.com", other_emails=[], computers=["simple"] * 3,
        decision_hours=24, ruleset_name="classic",
    )
    host = Seat.objects.get(game=game, position=0)
    seat_accept(seat=host, colour="red", display_name="Bot", time_zone="Europe/Berlin")
    game.refresh_from_db()
    return game, api_token_create(seat=host, label="document bot")[1]


def computers_play(game: Game, stop: threading.Event) -> None:
    """The worker's part: the computer players' turns, as soon as they come."""
    while not stop.is_set():
        computer_turns(game)
        stop.wait(0.05)


def test_a_bot_from_the_document_alone_plays_a_game_on_the_stream_through_a_restart(tmp_path):
    assert not re.search(r"^\s*(import|from)\s+(django|games|versailles_site|tests)\b", BOT.read_text(), re.M)
    game, secret = game_against_computers()
    stop = threading.Event()
    worker = threading.Thread(target=computers_play, args=(game, stop), daemon=True)
    # The bot answers as soon as it hears of its turn, so the server reads
    # the versions waited on every 20 ms rather than 500: the game is the
    # same, told sooner (the test took 58 s on this machine, 8 s now).
    with asgi_server(tmp_path, API_WAIT_POLL_MS="20") as server:
        worker.start()
        try:
            base = f"{server.url}/api/v1"
            bot = DocBot(base, secret)
            made, checked, replay, last_id = 0, 0, None, None
            for _connection in range(50):
                events = bot.events(last_id)
                for event_id, data in events:
                    last_id = event_id
                    body = bot.decision_for(data["view"])
                    if body is None:
                        continue
                    if made == CRASH_AFTER and replay is None:
                        key = str(uuid.uuid4())
                        first = bot.send(body, key)  # its answer is lost in the crash
                        checked += bot.answers_checked
                        bot, last_id = DocBot(base, secret, seed=2), None  # a new process, from nothing
                        again = bot.send(body, key)
                        replay = (first, again)
                        made += first[0] == 200
                        break
                    status, _headers, _answer = bot.send(body)
                    made += status == 200
                events.close()
                game.refresh_from_db()
                if game.status == Game.Status.OVER:
                    break
            checked += bot.answers_checked
        finally:
            stop.set()
            worker.join(timeout=30)
    assert game.status == Game.Status.OVER
    assert replay is not None
    (status, headers, answer), (status_again, headers_again, answer_again) = replay
    assert (status, answer) == (status_again, answer_again) and status == 200
    assert (headers["Idempotent-Replayed"], headers_again["Idempotent-Replayed"]) == ("false", "true")
    api_decisions = ActionRecord.objects.filter(game=game, actor="player", source="api").count()
    assert api_decisions == made > CRASH_AFTER
    assert checked > 2 * made
