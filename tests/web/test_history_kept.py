"""The history is told once per log record: what was told at one version
is kept for the game and grown by the records written since, and reads
exactly as if the whole log were told afresh."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.db import transaction
from django.utils import translation

from games.models import Game
from games.selectors import seat as seat_reads
from games.selectors.seat import HISTORY_LIMIT, history
from tests.factories import play_steps, started_game

pytestmark = pytest.mark.django_db


def names_of(game: Game) -> dict:
    return {s.colour: s.name for s in game.seats.all()}


def told_afresh(game: Game) -> list[dict]:
    cache.clear()
    return history(game, names=names_of(game))


def test_a_history_grown_from_an_earlier_version_reads_as_one_told_whole():
    game = play_steps(started_game(4), 30, random.Random(3))
    history(game, names=names_of(game))  # kept at this version
    game = play_steps(game, 25, random.Random(4))
    grown = history(game, names=names_of(game))
    assert len(grown) == HISTORY_LIMIT
    assert grown == told_afresh(game)


def test_a_grown_history_tells_only_the_records_written_since(monkeypatch):
    game = play_steps(started_game(4), 40, random.Random(5))
    history(game, names=names_of(game))
    kept_version = game.version
    game = play_steps(game, 3, random.Random(6))
    told_events = []
    real_describe = seat_reads.describe

    def counting_describe(event, names=None):
        told_events.append(event)
        return real_describe(event, names)

    monkeypatch.setattr(seat_reads, "describe", counting_describe)
    history(game, names=names_of(game))
    new_events = [
        event
        for record in game.actions.filter(seq__gt=kept_version).order_by("seq")
        for event in record.events
    ]
    assert told_events == new_events


def test_an_older_version_asked_after_a_newer_one_shows_the_older_log():
    game = play_steps(started_game(4), 20, random.Random(7))
    older = Game.objects.get(pk=game.pk)
    older_told = told_afresh(older)
    game = play_steps(game, 15, random.Random(8))
    history(game, names=names_of(game))  # the newer version is kept
    assert history(older, names=names_of(older)) == older_told
    # ...and the newer one is still what is kept.
    assert history(game, names=names_of(game)) == told_afresh(game)


def test_a_history_is_kept_per_language_and_names():
    game = play_steps(started_game(4), 20, random.Random(9))
    names = names_of(game)
    english = history(game, names=names)
    renamed = {colour: f"{name}!" for colour, name in names.items()}
    assert history(game, names=renamed) != english
    with translation.override("de"):
        assert history(game, names=names) != english


def moved_to_id(game: Game, new_id: int) -> Game:
    """The game with its rows under another id, as a database made afresh
    numbers its games from 1 again."""
    old_id = game.pk
    with transaction.atomic():
        Game.objects.filter(pk=old_id).update(public_id="moving")
        row = Game.objects.filter(pk=old_id).values().get()
        Game.objects.create(**{**row, "id": new_id, "public_id": game.public_id})
        for relation in Game._meta.related_objects:
            relation.related_model.objects.filter(**{relation.field.attname: old_id}).update(
                **{relation.field.attname: new_id}
            )
        Game.objects.filter(pk=old_id).delete()
    return Game.objects.get(pk=new_id)


def test_a_game_under_the_id_of_one_told_before_shows_only_its_own_history():
    earlier = play_steps(started_game(4), 20, random.Random(11))
    history(earlier, names=names_of(earlier))  # kept, as the cache outlives the database
    reused_id = earlier.pk
    earlier.delete()
    game = play_steps(started_game(4), 30, random.Random(12))
    game = moved_to_id(game, reused_id)
    assert game.version > earlier.version
    assert history(game, names=names_of(game)) == told_afresh(game)
