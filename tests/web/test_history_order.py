"""The history reads in one order, oldest first like a story, on the seat
page and the spectator page alike; they keep only the newest entries (the
seat page the latest few), and the seat's history page keeps all."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.test import Client

from games.models import ActionRecord, Game
from games.narrate import describe
from games.selectors.seat import HISTORY_LIMIT, SEAT_HISTORY_LIMIT
from tests.factories import play_until, started_game, tokens

pytestmark = pytest.mark.django_db


def _history_lines(path: str) -> tuple[str, list[str]]:
    """The note and the sentences of the "What happened" box, in page order."""
    page = Client().get(path)
    assert page.status_code == 200
    (box,) = re.findall(r"<h2>What happened</h2>(.*?)</section>", page.content.decode(), re.S)
    note = html.unescape(re.sub(r"<[^>]+>", "", box.split("<ul>")[0])).strip()
    return note, [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", box, re.S)]


def _sentences_by_seq(game: Game) -> list[tuple[int, str]]:
    names = {s.colour: s.name for s in game.seats.all()}
    return [
        (record.seq, text)
        for record in ActionRecord.objects.filter(game=game).order_by("seq")
        for text in (describe(event, names) for event in record.events)
        if text
    ]


def test_a_race_start_comes_before_that_races_rolls_and_earlier_actions_before_later_ones():
    game = started_game(3)

    def race_under_way_after_more_than_a_page(state) -> bool:
        told = ActionRecord.objects.filter(game=game).exclude(events=[]).count()
        return told > HISTORY_LIMIT and state.race is not None and any(state.race.positions)

    game = play_until(game, race_under_way_after_more_than_a_page, random.Random(5))
    told = _sentences_by_seq(game)

    for path, limit in ((f"/s/{tokens(game)[0]}/", SEAT_HISTORY_LIMIT), (f"/g/{game.public_id}/", HISTORY_LIMIT)):
        note, lines = _history_lines(path)

        assert note == f"The latest {limit} actions, oldest first."
        if limit == HISTORY_LIMIT:
            race_start = max(i for i, line in enumerate(lines) if re.match(r"Race \d+ to space", line))
            last_roll = max(i for i, line in enumerate(lines) if " rolled " in line)
            assert race_start < last_roll
        # Every line in the order the log has it: the oldest shown first, the newest last.
        assert lines == [text for _, text in told][-len(lines):]
        assert lines[-1] == told[-1][1]


def test_a_short_history_says_it_is_oldest_first_and_starts_with_the_first_draw():
    game = started_game(3)

    note, lines = _history_lines(f"/g/{game.public_id}/")

    assert note == "Oldest first."
    assert lines[0] == _sentences_by_seq(game)[0][1]
    assert "was drawn to start" in lines[0]


def test_the_seat_history_page_shows_every_entry_oldest_first():
    game = started_game(3)
    game = play_until(
        game,
        lambda state: ActionRecord.objects.filter(game=game).exclude(events=[]).count() > HISTORY_LIMIT + 5,
        random.Random(5),
    )
    version = game.version
    told = [text for _, text in _sentences_by_seq(game)]
    page = Client().get(f"/s/{tokens(game)[0]}/history")
    assert page.status_code == 200
    (box,) = re.findall(r'<ol class="history">(.*?)</ol>', page.content.decode(), re.S)
    entries = [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in re.findall(r"<li>(.*?)</li>", box, re.S)]
    shown = " ".join(entry.split(" — ", 1)[1] for entry in entries)
    assert len(entries) > HISTORY_LIMIT
    assert shown == " ".join(told)
    # A GET changes nothing, and a made-up link opens no history.
    game.refresh_from_db()
    assert game.version == version
    assert Client().get("/s/not-a-real-link/history").status_code == 404
    assert Client().get("/s/not-a-real-link/settings").status_code == 404
