"""The dashboard: games that need a moderator, why, the most urgent first; and
search and filter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.models import Game, HelpRequest, Notification, Seat
from games.services.outbox import seat_mark_undeliverable
from games.services.sweeps import deadlines_sweep
from tests.factories import seat_at, started_game, tokens

from .helpers import act, named, play_with_silent_seats, text_of

pytestmark = pytest.mark.django_db

T0 = datetime(2027, 5, 3, 8, 0, tzinfo=UTC)


def reasons_for(client, game, **params) -> list[str] | None:
    """The reasons the dashboard gives for ``game``, or None if it is not listed."""
    response = client.get("/mod/", params)
    assert response.status_code == 200
    for row in response.context["rows"]:
        if row["game"].pk == game.pk:
            return row["reasons"]
    return None


def listed(client, **params) -> list[str]:
    return [row["game"].public_id for row in client.get("/mod/", params).context["rows"]]


@pytest.fixture
def traveller(mod_client, moderator):
    with time_machine.travel(T0, tick=False) as traveller:
        mod_client.force_login(moderator)
        yield traveller


def test_a_game_with_two_silent_seats_is_flagged_and_each_flag_goes_once_handled(mod_client, traveller):
    game = started_game(4)
    silent = {0, 2}
    seats = {p: seat_at(game, p) for p in silent}
    assert reasons_for(mod_client, game) is None

    def both_on_autopilot(game):
        return Seat.objects.filter(game=game, position__in=silent, autopilot_reason="missed").count() == 2

    game = play_with_silent_seats(game, silent, traveller, both_on_autopilot)
    for position in silent:
        seat = seat_at(game, position)
        assert (seat.autopilot, seat.autopilot_reason, seat.missed_deadlines) == (True, "missed", 3)
    for position in {0, 1, 2, 3} - silent:
        assert seat_at(game, position).autopilot is False

    reasons = reasons_for(mod_client, game)
    assert sorted(reasons) == sorted(
        f"{named(seats[p])} missed 3 deadlines in a row (autopilot on)" for p in silent
    )
    page = text_of(mod_client.get("/mod/"))
    assert f"{named(seats[0])} missed 3 deadlines in a row" in page

    # One seat goes on the moderator's autopilot, the other to a new player.
    act(mod_client, game, "autopilot_on", seat=0, reason="keeps the game going")
    assert reasons_for(mod_client, game) == [f"{named(seats[2])} missed 3 deadlines in a row (autopilot on)"]
    act(mod_client, game, "replace", seat=2, email="fresh@example.net", reason="silent for days")
    assert reasons_for(mod_client, game) is None
    replaced = seat_at(game, 2)
    assert (replaced.autopilot, replaced.missed_deadlines) == (False, 0)


def test_an_overdue_decision_shows_until_the_sweep_applies_the_default(mod_client, traveller):
    game = started_game(4)
    traveller.move_to(game.deadline + timedelta(minutes=5))
    assert reasons_for(mod_client, game) is None, "a few minutes late is the sweep's normal delay"
    traveller.move_to(game.deadline + timedelta(minutes=11))
    reasons = reasons_for(mod_client, game)
    assert len(reasons) == 1 and reasons[0].startswith("decision overdue since ")
    assert game.deadline.strftime("%Y-%m-%d %H:%M UTC") in reasons[0]
    assert deadlines_sweep() == 1
    assert reasons_for(mod_client, game) is None


def test_an_overdue_decision_goes_when_the_moderator_applies_the_default(mod_client, traveller):
    game = started_game(4)
    traveller.move_to(game.deadline + timedelta(hours=3))
    assert reasons_for(mod_client, game)[0].startswith("decision overdue since ")
    act(mod_client, game, "default", reason="workers were down")
    assert reasons_for(mod_client, game) is None


def test_a_help_request_shows_until_marked_handled(mod_client, traveller):
    game = started_game(4)
    seat = seat_at(game, 1)
    mod_client.post(f"/s/{tokens(game)[1]}/help", {"message": "Blue keeps insulting me in the replies"})
    assert reasons_for(mod_client, game) == [f"{named(seat)} asks for help: Blue keeps insulting me in the replies"]
    game_page = text_of(mod_client.get(f"/mod/g/{game.public_id}/"))
    assert "Blue keeps insulting me in the replies" in game_page
    help_request = HelpRequest.objects.get()
    act(mod_client, game, "help_handled", help=help_request.pk, reason="talked to both")
    help_request.refresh_from_db()
    assert help_request.handled_at is not None
    assert reasons_for(mod_client, game) is None
    assert "A moderator answered Player 1's request for help: talked to both" in text_of(
        mod_client.get(f"/s/{tokens(game)[0]}/")
    )


def test_an_undeliverable_address_shows_until_the_player_is_replaced(mod_client, traveller):
    game = started_game(4)
    seat = seat_at(game, 3)
    seat_mark_undeliverable(seat_id=seat.pk)
    assert reasons_for(mod_client, game) == [f"{named(seat)}: email undeliverable (p3@example.com)"]
    act(mod_client, game, "replace", seat=3, email="working@example.net", reason="address bounced")
    assert reasons_for(mod_client, game) is None


def test_a_long_pause_shows_until_the_game_resumes(mod_client, traveller):
    game = started_game(4)
    act(mod_client, game, "pause", reason="dispute")
    traveller.shift(timedelta(days=2))
    assert reasons_for(mod_client, game) is None, "a short pause needs nothing"
    traveller.shift(timedelta(days=1, minutes=1))
    assert reasons_for(mod_client, game) == [f"paused since {T0:%Y-%m-%d %H:%M} UTC"]
    act(mod_client, game, "resume", reason="dispute settled")
    assert reasons_for(mod_client, game) is None


def test_the_longest_waiting_problem_comes_first(mod_client, traveller):
    overdue = started_game(4)
    traveller.shift(timedelta(hours=2))
    asking = started_game(4)
    traveller.shift(timedelta(hours=1))
    mod_client.post(f"/s/{tokens(asking)[0]}/help", {"message": "how do I bid?"})
    quiet = started_game(4)
    # The first game's deadline passed long after the help request came in:
    # the request has waited longer.
    traveller.move_to(overdue.deadline + timedelta(hours=1))
    assert listed(mod_client) == [asking.public_id, overdue.public_id]
    assert quiet.public_id not in listed(mod_client)
    # A deadline overdue since before the request makes that game come first.
    Game.objects.filter(pk=overdue.pk).update(deadline=T0 - timedelta(days=2))
    assert listed(mod_client) == [overdue.public_id, asking.public_id]


def test_search_by_game_id_or_player_email_and_filter_by_state(mod_client, traveller):
    first, second, third = started_game(4), started_game(3), started_game(4)
    Seat.objects.filter(game=second, position=2).update(email="carol.unique@example.org")
    act(mod_client, third, "pause", reason="holidays")

    # Nothing needs attention: the plain dashboard is empty.
    assert listed(mod_client) == []
    assert "Nothing needs attention." in text_of(mod_client.get("/mod/"))
    # The public id finds its game, needing attention or not.
    assert listed(mod_client, q=first.public_id) == [first.public_id]
    assert reasons_for(mod_client, first, q=first.public_id) == []
    assert "nothing to do" in text_of(mod_client.get("/mod/", {"q": first.public_id}))
    # A player's address, or part of it, in any case.
    assert listed(mod_client, q="carol.unique@example.org") == [second.public_id]
    assert listed(mod_client, q="CAROL.unique") == [second.public_id]
    assert sorted(listed(mod_client, q="p1@example.com")) == sorted(g.public_id for g in (first, second, third))
    assert listed(mod_client, q="nobody@example.org") == []
    # The state filter, alone and with a search.
    assert listed(mod_client, status="paused") == [third.public_id]  # listed, with nothing to do yet
    assert listed(mod_client, q="example.com", status="paused") == [third.public_id]
    assert sorted(listed(mod_client, q="example.com", status="running")) == sorted([first.public_id, second.public_id])
    assert listed(mod_client, q="example.com", status="over") == []
    # An unknown state is ignored rather than an error.
    assert len(listed(mod_client, q="example.com", status="bogus")) == 3
    # Flagged games filter by state too.
    traveller.shift(timedelta(days=4))
    assert listed(mod_client, status="paused") == [third.public_id]
    assert third.public_id not in listed(mod_client, status="running")


@pytest.mark.parametrize(
    "kind, label",
    [("reply_error", "answer to a reply (refused)"), ("reminder-2", "reminder 2"), ("invite", "invitation")],
)
def test_an_email_that_could_not_be_sent_is_named_by_what_it_was_not_by_its_kind(mod_client, kind, label):
    game = started_game(3)
    seat = seat_at(game, 1)
    Notification.objects.create(
        game=game, seat=seat, kind=kind, version=99, to_email=seat.email,
        status=Notification.Status.FAILED, last_error="554 refused",
    )
    reasons = reasons_for(mod_client, game)
    assert f"{named(seat)}: an email could not be sent ({label}: 554 refused)" in reasons
