"""Three deadlines missed in a row put a seat on autopilot and on the
dashboard; the player takes the seat back by acting."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
import time_machine

from games import engine
from games.models import ActionRecord, Seat
from games.services.game_state import load_state
from tests.factories import play_until, seat_at, started_game, tokens

from .helpers import act, mover, named, play_with_silent_seats, text_of

pytestmark = pytest.mark.django_db

T0 = datetime(2027, 6, 7, 7, 0, tzinfo=UTC)


@pytest.fixture
def traveller(mod_client, moderator):
    with time_machine.travel(T0, tick=False) as traveller:
        mod_client.force_login(moderator)
        yield traveller


def flagged(client, game) -> list[str]:
    for row in client.get("/mod/").context["rows"]:
        if row["game"].pk == game.pk:
            return row["reasons"]
    return []


def missed(game, position: int, n: int):
    return lambda g: seat_at(g, position).missed_deadlines >= n


def test_three_missed_deadlines_in_a_row_put_the_seat_on_autopilot_and_flag_it(mod_client, traveller):
    game = started_game(4)
    silent = 1
    game = play_with_silent_seats(game, {silent}, traveller, missed(game, silent, 2))
    seat = seat_at(game, silent)
    assert (seat.missed_deadlines, seat.autopilot) == (2, False)
    assert flagged(mod_client, game) == []

    game = play_with_silent_seats(game, {silent}, traveller, missed(game, silent, 3))
    seat = seat_at(game, silent)
    assert (seat.missed_deadlines, seat.autopilot, seat.autopilot_reason) == (3, True, "missed")
    assert flagged(mod_client, game) == [f"{named(seat)} missed 3 deadlines in a row (autopilot on)"]
    # The deadlines were applied by the timer, as 'deadline'.
    assert ActionRecord.objects.filter(game=game, seat=silent, actor="deadline", source="timer").count() == 3

    # From now on the seat never holds the game up.
    for _ in range(30):
        assert mover(game) != silent
        game = play_with_silent_seats(game, set(), traveller, lambda g, v=game.version: g.version > v)

    # Its page says so, with a button to take it back; everyone sees "on autopilot".
    token = tokens(game)[silent]
    page = text_of(mod_client.get(f"/s/{token}/"))
    assert "You missed several deadlines in a row" in page
    assert 'action="back"' in page  # next to the seat page: /s/<token>/back
    assert "on autopilot" in text_of(mod_client.get(f"/g/{game.public_id}/"))

    response = mod_client.post(f"/s/{token}/back", follow=True)
    assert "Welcome back: you decide for your seat again." in text_of(response)
    seat.refresh_from_db()
    assert (seat.autopilot, seat.autopilot_reason, seat.missed_deadlines) == (False, "", 0)
    assert flagged(mod_client, game) == []
    # Its next decision waits for the player.
    game = play_until(game, lambda s: engine.to_move(s) == silent, random.Random(2))
    assert mover(game) == silent


def test_a_decision_resets_the_count_so_misses_must_be_in_a_row(mod_client, traveller):
    game = started_game(4)
    silent = 2
    game = play_with_silent_seats(game, {silent}, traveller, missed(game, silent, 2))
    # The player acts once, through their page.
    game = play_with_silent_seats(game, set(), traveller, lambda g: engine.to_move(load_state(g)) == silent)
    token = tokens(game)[silent]
    state = load_state(game)
    action = engine.default_action(state)
    assert engine.decision_kind(state) in ("bid", "roll")
    data = {"version": game.decision_version, "action": "pass" if engine.decision_kind(state) == "bid" else "roll"}
    response = mod_client.post(f"/s/{token}/act", data, follow=True)
    assert "Done:" in text_of(response), action
    assert seat_at(game, silent).missed_deadlines == 0
    # Two more misses are not three in a row.
    game = play_with_silent_seats(game, {silent}, traveller, missed(game, silent, 2))
    assert seat_at(game, silent).autopilot is False


def test_taking_back_does_not_end_a_moderators_autopilot(mod_client, game):
    act(mod_client, game, "autopilot_on", seat=3, reason="player asked")
    token = tokens(game)[3]
    page = text_of(mod_client.get(f"/s/{token}/"))
    assert "A moderator has put your seat on autopilot." in page
    assert f'action="/s/{token}/back"' not in page
    mod_client.post(f"/s/{token}/back")
    seat = seat_at(game, 3)
    assert (seat.autopilot, seat.autopilot_reason) == (True, "moderator")
    assert Seat.objects.filter(game=game, autopilot=True).count() == 1
