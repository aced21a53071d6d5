"""Pauses and absences across the end of summer time in Europe/Berlin
(2026-10-25, 03:00 CEST -> 02:00 CET): pauses move deadlines by absolute time,
absences follow the player's calendar."""

from __future__ import annotations

import random
import re
import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import engine
from games.models import Absence, ActionRecord, Game
from games.services.sweeps import deadlines_sweep
from games.services.timing import reminder_lead
from tests.factories import computer_turns, play_steps, play_until, seat_at, started_game, tokens

from .helpers import act, mover, text_of

pytestmark = pytest.mark.django_db

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
SATURDAY_NOON = datetime(2026, 10, 24, 12, 0, tzinfo=UTC)  # 14:00 CEST, the day before the change
SATURDAY_MIDNIGHT_BERLIN = datetime(2026, 10, 24, 0, 0, tzinfo=BERLIN)  # 2026-10-23 22:00 UTC
TUESDAY_MIDNIGHT_BERLIN = datetime(2026, 10, 27, 0, 0, tzinfo=BERLIN)  # 2026-10-26 23:00 UTC


@pytest.fixture
def traveller(mod_client, moderator):
    with time_machine.travel(SATURDAY_NOON, tick=False) as traveller:
        mod_client.force_login(moderator)
        yield traveller


def declare(client, game, position, first_day="2026-10-24", days=3, mode="extend"):
    response = client.post(
        f"/s/{tokens(game)[position]}/absence", {"first_day": first_day, "days": days, "mode": mode}, follow=True
    )
    computer_turns(game)
    return response


def test_a_pause_across_the_clock_change_moves_the_deadline_by_exactly_its_length(mod_client, traveller):
    traveller.move_to(datetime(2026, 10, 23, 23, 0, tzinfo=UTC))
    game = started_game(4)
    seat = seat_at(game, mover(game))
    assert seat.time_zone == "Europe/Berlin"
    deadline = game.deadline
    assert deadline == datetime(2026, 10, 24, 23, 0, tzinfo=UTC)  # Sunday 01:00 CEST
    page = text_of(mod_client.get(f"/s/{tokens(game)[seat.position]}/"))
    assert "Decide by Sun 25 Oct 2026, 01:00 (Europe/Berlin)" in page

    traveller.move_to(SATURDAY_NOON)
    act(mod_client, game, "pause", reason="tournament break")
    traveller.move_to(SATURDAY_NOON + timedelta(hours=48))
    assert deadlines_sweep() == 0
    act(mod_client, game, "resume", reason="break over")
    game.refresh_from_db()

    assert game.deadline - deadline == timedelta(hours=48)
    assert game.deadline == datetime(2026, 10, 26, 23, 0, tzinfo=UTC)
    # On the player's clock that is 47 hours later: the night had an hour more.
    page = text_of(mod_client.get(f"/s/{tokens(game)[seat.position]}/"))
    assert "Decide by Tue 27 Oct 2026, 00:00 (Europe/Berlin)" in page
    other = text_of(mod_client.get(f"/s/{tokens(game)[(seat.position + 1) % 4]}/"))
    assert "Deadline Tue 27 Oct, 00:00 (Europe/Berlin)." in other


def test_an_absence_follows_the_players_calendar_across_the_clock_change(mod_client, traveller):
    game = started_game(4)
    position = mover(game)
    seat = seat_at(game, position)
    deadline = game.deadline

    response = declare(mod_client, game, position, days=3, mode="extend")
    assert "Your absence is noted; everyone in the game can see it." in text_of(response)
    absence = Absence.objects.get(seat=seat)
    assert absence.ends_at == TUESDAY_MIDNIGHT_BERLIN == datetime(2026, 10, 26, 23, 0, tzinfo=UTC)
    assert absence.ends_at - SATURDAY_MIDNIGHT_BERLIN == timedelta(hours=73)
    assert absence.starts_at == SATURDAY_NOON  # declared during its first day: from now
    assert (absence.days, absence.mode) == (3, "extend")

    # The deadline that fell in it moves to one decision time after its end.
    game.refresh_from_db()
    assert game.deadline == absence.ends_at + timedelta(hours=24)
    assert game.reminder_at == game.deadline - reminder_lead(24)
    traveller.move_to(deadline + timedelta(minutes=1))
    assert deadlines_sweep() == 0
    traveller.move_to(game.deadline)
    assert deadlines_sweep() == 1


def test_a_later_decision_of_an_absent_seat_gets_its_deadline_after_the_absence(mod_client, traveller):
    game = started_game(4)
    away = (mover(game) + 2) % 4
    declare(mod_client, game, away, days=3, mode="extend")
    # Other seats' decisions keep their normal decision time.
    game.refresh_from_db()
    assert game.deadline == SATURDAY_NOON + timedelta(hours=24)
    game = play_until(game, lambda s: engine.to_move(s) == away, random.Random(4))
    assert game.deadline == TUESDAY_MIDNIGHT_BERLIN + timedelta(hours=24)
    traveller.move_to(SATURDAY_NOON + timedelta(hours=24, minutes=1))
    assert deadlines_sweep() == 0
    traveller.move_to(TUESDAY_MIDNIGHT_BERLIN + timedelta(hours=1))
    assert deadlines_sweep() == 0
    traveller.move_to(game.deadline)
    assert deadlines_sweep() == 1


def test_an_absence_is_shown_to_everyone_and_the_allowance_shrinks(mod_client, traveller):
    game = started_game(4)
    position = mover(game)
    name = seat_at(game, position).name
    page = text_of(mod_client.get(f"/s/{tokens(game)[position]}/settings"))
    assert "You have 7 days of absence left in this game." in page

    declare(mod_client, game, position, days=3, mode="extend")
    page = text_of(mod_client.get(f"/s/{tokens(game)[position]}/settings"))
    assert "You have 4 days of absence left in this game." in page
    for other in {0, 1, 2, 3} - {position}:
        other_page = text_of(mod_client.get(f"/s/{tokens(game)[other]}/"))
        # Its last day on the absent player's calendar (Monday), or the
        # moment it ends (Tuesday 00:00), but it is there.
        assert re.search(r"away until (Mon 26|Tue 27) Oct", other_page)
        # Only the absent seat's row says so.
        row = other_page[other_page.index(name, other_page.index("<h2>Players</h2>")):]
        assert row.index("away until") < row.index("</tr>")
        assert "You have 7 days of absence left in this game." in text_of(
            mod_client.get(f"/s/{tokens(game)[other]}/settings")
        )
    assert re.search(r"away until (Mon 26|Tue 27) Oct", text_of(mod_client.get(f"/g/{game.public_id}/")))

    # More than is left is refused, and nothing is stored.
    response = declare(mod_client, game, position, first_day="2026-10-28", days=5)
    assert "Nothing was changed: You have 4 days of absence left in this game." in text_of(response)
    assert Absence.objects.count() == 1
    # The rest of it may be used.
    declare(mod_client, game, position, first_day="2026-10-28", days=4)
    page = text_of(mod_client.get(f"/s/{tokens(game)[position]}/settings"))
    assert "You have 0 days of absence left in this game." in page
    assert f'action="/s/{tokens(game)[position]}/absence"' not in page
    response = declare(mod_client, game, position, first_day="2026-11-10", days=1)
    assert "Nothing was changed: You have 0 days of absence left in this game." in text_of(response)
    assert Absence.objects.count() == 2


def test_the_allowance_is_a_game_setting(mod_client, traveller):
    game = started_game(4)
    Game.objects.filter(pk=game.pk).update(absence_allowance_days=2)
    page = text_of(mod_client.get(f"/s/{tokens(game)[1]}/settings"))
    assert "You have 2 days of absence left in this game." in page
    response = declare(mod_client, game, 1, days=3)
    assert "Nothing was changed: You have 2 days of absence left in this game." in text_of(response)
    declare(mod_client, game, 1, days=2)
    assert "You have 0 days of absence left" in text_of(mod_client.get(f"/s/{tokens(game)[1]}/settings"))


def test_an_absence_cannot_start_in_the_past_or_have_no_mode(mod_client, traveller):
    game = started_game(4)
    response = declare(mod_client, game, 1, first_day="2026-10-23")
    assert "Start the absence today or on a later day within a year." in text_of(response)
    response = declare(mod_client, game, 1, mode="sleep")
    assert "Nothing was changed" in text_of(response)
    assert not Absence.objects.exists()


def test_with_autopilot_the_absent_seats_decisions_are_made_at_once_by_the_computer_player(mod_client, traveller):
    game = started_game(4)
    position = mover(game)
    version = game.version

    declare(mod_client, game, position, days=3, mode="autopilot")
    game.refresh_from_db()
    first = ActionRecord.objects.filter(game=game, seq=version + 1).first()
    assert first is not None, "the absent seat's pending decision was not taken"
    assert (first.seat, first.actor) == (position, "autopilot")
    # Its deadline did not move: the autopilot plays instead.
    absence = Absence.objects.get()
    assert absence.mode == "autopilot"

    # While away, the seat never holds the game up.
    for _ in range(60):
        game = play_steps(game, 1, random.Random(_))
        assert mover(game) != position
    assert (
        not ActionRecord.objects.filter(game=game, seat=position, seq__gt=version).exclude(actor="autopilot").exists()
    )

    # Back (the absence over), its decisions wait for the player again.
    traveller.move_to(absence.ends_at + timedelta(minutes=1))
    game = play_until(game, lambda s: engine.to_move(s) == position, random.Random(9))
    assert mover(game) == position


def test_one_day_left_is_said_in_the_singular_when_more_is_asked(mod_client, traveller):
    game = started_game(4)
    Game.objects.filter(pk=game.pk).update(absence_allowance_days=1)
    response = declare(mod_client, game, 1, days=2)
    assert "Nothing was changed: You have 1 day of absence left in this game." in text_of(response)
