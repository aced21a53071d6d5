"""Computer players' names (issue 29): stored as a level and a number and
worded for each reader, so a German host's computers read English on English
pages; the migration numbers the seats made before."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.utils import translation

from games.models import Seat
from games.services.setup import game_create

pytestmark = pytest.mark.django_db

numbering = importlib.import_module("games.migrations.0018_computer_number")


def test_computer_seats_are_named_by_level_and_number_in_the_language_active():
    game = game_create(
        host_name="H", host_email="h@example.com", other_emails=["g@example.com"], decision_hours=24,
        ruleset_name="classic", language="de", computers=["strong", "simple", "strong"],
    )
    seats = list(Seat.objects.filter(game=game).exclude(computer="").order_by("position"))
    assert [(s.computer, s.computer_number) for s in seats] == [("strong", 1), ("simple", 1), ("strong", 2)]
    with translation.override("en"):
        assert [s.name for s in seats] == ["Strong computer 1", "Simple computer 1", "Strong computer 2"]
    with translation.override("de"):
        assert [s.name for s in seats] == ["Starker Computer 1", "Einfacher Computer 1", "Starker Computer 2"]


def test_the_migration_numbers_computer_seats_stored_with_a_name_only():
    game = game_create(
        host_name="H", host_email="h@example.com", other_emails=["g@example.com"], decision_hours=24,
        ruleset_name="classic", language="de", computers=["simple", "simple", "strong"],
    )
    computers = Seat.objects.filter(game=game).exclude(computer="")
    # As seats were before the number was stored: a name in the host's
    # language, the last one's lost.
    computers.update(computer_number=0)
    Seat.objects.filter(game=game, position=3).update(display_name="Einfacher Computer 2")
    Seat.objects.filter(game=game, position=4).update(display_name="")
    numbering.number_the_computer_players(apps, None)
    with translation.override("en"):
        names = [s.name for s in computers.order_by("position")]
    assert names == ["Simple computer 1", "Simple computer 2", "Strong computer 1"]
    assert Seat.objects.get(game=game, position=0).computer_number == 0, "a person's seat was numbered"
