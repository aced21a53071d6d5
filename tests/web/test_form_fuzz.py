"""Ten thousand and more generated posts to every form: hostile, missing,
huge and mistyped fields, control characters, wrong versions. Never a server
error, and nothing changes that the post had no right to change.

A plain seeded generator rather than hypothesis: it keeps the games it
builds across posts, so it can send this many in well under a minute. The
seed fixes the mix of forms, fields and hostile values; the games' own
seeds and links are new each run, so the counts it prints vary a little."""

from __future__ import annotations

import os
import random

import pytest
from django.core.cache import cache
from django.test import Client

from games import engine
from games.models import Game, Seat
from games.services.game_state import load_state
from games.services.names import name_problem
from games.web.forms import decision_form_data
from tests.factories import COLOURS, started_game, tokens
from tests.web.integrity_helpers import game_at_roll, inviting_game

pytestmark = pytest.mark.django_db

# FUZZ_POSTS=500 for a quick look while working on a form.
POSTS = int(os.environ.get("FUZZ_POSTS", "10000"))
SEED = 20_240_610

HOSTILE = [
    "", " ", "\r\n", "a\r\nBcc: x@example.com", "\x00", "a\x00b", "\t", "\x1b[31m", "\u2028", "\u202e",
    "\u200b", "\x85", "-1", "0", "1", "2", "99999999999999999999999", "1e9", "NaN", "3.5", "٣", "１",
    "<script>alert(1)</script>", "O'Brien & <Co>", "' OR 1=1 --", "{{ 7*7 }}", "%(x)s", "../../etc/passwd",
    "red", "yellow", "green", "blue", "white", "black", "none", "bid", "pass", "roll", "push", "remove",
    "arrange", "on", "true", "false", "default", "leader", "ahead", "UTC", "Europe/Berlin", "Mars/Base",
    "classic", "nonsense", "24", "48", "7", "digest", "every", "off", "p1@example.com", "p0@example.com",
    "not-an-email", "a@b", "x" * 5000, "é" * 3000, "@" * 300, "2025-01-01", "2099-12-31", "0000-00-00",
]
FIELDS = [
    "version", "action", "amount", "target", "colour", "display_name", "time_zone", "host_name",
    "host_email", "other_emails", "decision_hours", "ruleset", "email", "auto_roll", "bid_limit",
    "bid_every", "devil", "removal", "auction", "email_mode", "message", "first_day", "days", "mode",
    "username", "password", "slot_1", "slot_2", "slot_3", "slot_4", "slot_red", "slot_yellow",
    "slot_green", "next",
]
# Weighted towards the forms that change a game; the pages that re-render a
# long form (the time-zone list, the login page) cost ten times a redirect.
SEAT_ENDPOINTS = {
    "act": 6, "orders": 4, "arrange": 4, "emails": 2, "help": 2, "absence": 2, "back": 2, "seen": 2,
    "": 1, "accept": 0.5,
}
OTHER_ENDPOINTS = {"/new/": 2, "/link/": 3, "/u/": 3, "/mod/login/": 1}
# Endpoints that may move a running game on: a decision (checked below), and
# the settings that let the server decide for a seat at once.
MAY_MOVE_THE_GAME = {"orders", "absence", "back", "arrange"}


def _value(rng: random.Random, versions: list[int]) -> str | list[str]:
    roll = rng.random()
    if roll < 0.15:
        return str(rng.choice(versions) + rng.choice([-1, 0, 0, 1]))
    if roll < 0.2:
        return [rng.choice(HOSTILE) for _ in range(rng.randint(2, 3))]
    if roll < 0.3:
        return "".join(chr(rng.randint(1, 0xFFFF)) for _ in range(rng.randint(1, 20))).replace(
            "\ud800", ""
        )
    return rng.choice(HOSTILE)


def _post_data(rng: random.Random, versions: list[int]) -> dict:
    data = {name: _value(rng, versions) for name in rng.sample(FIELDS, rng.randint(0, 8))}
    # Strip lone surrogates: the test client cannot encode them (a browser would not send them).
    for name, value in list(data.items()):
        if isinstance(value, str):
            data[name] = value.encode("utf-8", "ignore").decode()
    return data


def _valid_form(rng: random.Random, endpoint: str, game: Game | None, number: int) -> dict:
    """A post the form would take, to be mutated: random fields alone seldom
    get past the form to the service, where the harder checks are."""
    if endpoint == "/new/":
        return {
            "host_name": "Host", "host_email": f"h{number}@example.com",
            "other_emails": f"a{number}@example.com\nb{number}@example.com", "decision_hours": "24",
            "ruleset": "classic",
        }
    if endpoint == "accept":
        return {"colour": rng.choice(COLOURS), "display_name": "Eve", "time_zone": "UTC"}
    if endpoint == "act" and game is not None:
        game.refresh_from_db()
        if game.status == Game.Status.RUNNING:
            state = load_state(game)
            if engine.to_move(state) not in (None, engine.CHANCE):
                action = rng.choice(engine.legal_actions(state))
                return decision_form_data(engine.format_action(action), game.decision_version)
    if endpoint == "orders":
        return {"auto_roll": "on", "bid_limit": "5", "devil": "leader", "removal": "default"}
    if endpoint == "/link/":
        return {"email": "p1@example.com"}
    return {}


def _mutated(rng: random.Random, form: dict, versions: list[int]) -> dict:
    names = list(form) + rng.sample(FIELDS, 1)
    for name in rng.sample(names, min(len(names), rng.choice([0, 0, 1, 1, 2]))):
        if rng.random() < 0.2:
            form.pop(name, None)
        else:
            form[name] = _value(rng, versions)
    # Names are where a control character does harm: try one often.
    for name in ("host_name", "display_name"):
        if name in form and rng.random() < 0.5:
            form[name] = "Eve" + rng.choice(HOSTILE[1:12]) + "Smith"
    return {k: v.encode("utf-8", "ignore").decode() if isinstance(v, str) else v for k, v in form.items()}


def _as_int(value) -> int | None:
    if isinstance(value, list):
        value = value[-1] if value else ""
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _games() -> dict[int, tuple]:
    return {
        pk: (v, dv, status)
        for pk, v, dv, status in Game.objects.values_list("pk", "version", "decision_version", "status")
    }


@pytest.mark.heavy
def test_ten_thousand_hostile_posts_give_no_server_error_and_change_only_what_they_may():
    rng = random.Random(SEED)
    games = [inviting_game(accepted=1), game_at_roll(), started_game(players=3)]
    seats = [(game, position, token) for game in games for position, token in tokens(game).items()]
    client = Client(raise_request_exception=False)
    statuses: dict[int, int] = {}
    sent = moved = 0
    # Nothing runs between two posts (tasks run in the request, after its
    # commit): the games after one post are the games before the next.
    after = _games()
    for number in range(POSTS):
        cache.clear()
        before = after
        versions = [dv for _, dv, _ in before.values()]
        kind = rng.random()
        if kind < 0.85:
            game, position, token = rng.choice(seats)
            if rng.random() < 0.02:
                token = token[:-2] + "xx"
            endpoint = rng.choices(list(SEAT_ENDPOINTS), weights=list(SEAT_ENDPOINTS.values()))[0]
            path = f"/s/{token}/{endpoint}"
            data = _post_data(rng, versions)
            if rng.random() < 0.4:
                data = _mutated(rng, _valid_form(rng, endpoint, game, number), versions)
        else:
            game, position = None, None
            endpoint = rng.choices(list(OTHER_ENDPOINTS), weights=list(OTHER_ENDPOINTS.values()))[0]
            path = endpoint + ("x" * rng.randint(0, 40) + "/" if endpoint == "/u/" else "")
            data = _post_data(rng, versions)
            if rng.random() < 0.4:
                data = _mutated(rng, _valid_form(rng, endpoint, None, number), versions)
        mover = None
        if endpoint == "act" and before[game.pk][2] == Game.Status.RUNNING:
            mover = engine.to_move(load_state(Game.objects.get(pk=game.pk)))
        response = client.post(path, data)
        sent += 1
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        assert response.status_code < 500, (number, path, data)

        after = _games()
        if endpoint != "/new/":
            assert set(after) == set(before), (number, path, data)
        for pk, (version, decision_version, _status) in before.items():
            if after[pk][0] == version:
                continue
            moved += 1
            if game is not None and pk == game.pk and endpoint in MAY_MOVE_THE_GAME:
                continue
            # Anything else that moves a game must be a decision, posted by
            # the seat to move, at the version its page showed.
            assert game is not None and pk == game.pk and endpoint in ("act", "accept"), (number, path, data)
            if endpoint == "act":
                assert position == mover, (number, path, data)
                assert _as_int(data.get("version")) == decision_version, (number, path, data)
    for seat in Seat.objects.all():
        assert name_problem(seat.display_name) is None or seat.display_name == "", seat.display_name
    assert sent == POSTS
    print(f"\n{sent} posts; responses {dict(sorted(statuses.items()))}; {moved} moved a game")
