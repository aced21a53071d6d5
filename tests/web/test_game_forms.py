"""The forms a game starts with (issue 29): the new-game form and the form a
player takes their seat with. Each label stands above its field, an error
right under its field, the number of players the rulesets allow is said,
the time zones come grouped by region and the colours as swatches. The
browser's zone chosen for the player is proven in Chromium
(tests/browser/test_game_forms.py)."""

from __future__ import annotations

import re
import zoneinfo

import pytest
from django.test import Client

from games import engine
from games.board.colours import hex_of
from games.models import Seat
from games.services.links import seat_token
from games.services.setup import game_create

pytestmark = pytest.mark.django_db


def _field(page: str, name: str) -> str:
    """The block the form template makes for one field."""
    found = re.search(rf'<(div|fieldset) class="field[^"]*" id="field-{name}">(.*?)</\1>', page, re.S)
    assert found, f"no field block for {name}"
    return found.group(2)


def _range() -> tuple[int, int]:
    rulesets = engine.RULESETS.values()
    return min(r.min_players for r in rulesets), max(r.max_players for r in rulesets)


def test_the_new_game_form_says_how_many_players_a_game_takes_from_the_rulesets(client):
    low, high = _range()
    page = client.get("/new/").content.decode()
    assert f"A game takes {low} to {high} players" in page
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get("/new/").content.decode()
    assert f"Eine Partie hat {low} bis {high} Spieler" in german


def test_every_label_of_the_new_game_form_stands_above_its_own_field(client):
    page = client.get("/new/").content.decode()
    for name in ("host_name", "host_email", "other_emails", "strong_computers", "decision_hours"):
        block = _field(page, name)
        label = re.search(rf'<label for="id_{name}">', block)
        control = re.search(rf'<(input|select|textarea)[^>]*id="id_{name}"', block)
        assert label and control and label.start() < control.start(), name


def test_an_error_stands_under_its_own_field_and_the_field_points_at_it(client):
    response = client.post("/new/", {
        "host_name": "Host", "host_email": "not an address", "other_emails": "a@example.com\nnonsense",
        "decision_hours": "24", "ruleset": "classic",
    })
    assert response.status_code == 400
    page = response.content.decode()
    email = _field(page, "host_email")
    assert 'aria-invalid="true"' in email and 'id="id_host_email_error"' in email
    assert re.search(r'aria-describedby="[^"]*id_host_email_error', email)
    assert email.index('id="id_host_email"') < email.index('id="id_host_email_error"')
    others = _field(page, "other_emails")
    assert "nonsense is not an email address." in others
    assert "nonsense is not an email address." not in _field(page, "host_name")


def _invitation(language: str = "en") -> str:
    game = game_create(
        host_name="Host", host_email="host@example.com", other_emails=["guest@example.com", "third@example.com"],
        decision_hours=24, ruleset_name="classic",
    )
    seat = Seat.objects.get(game=game, email="guest@example.com")
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/s/{seat_token(seat)}/").content.decode()


def test_the_time_zones_are_grouped_by_region_with_utc_first_and_every_zone_offered():
    page = _invitation()
    select = _field(page, "time_zone")
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert {"Africa", "America", "Asia", "Europe", "Pacific Ocean"} <= set(groups)
    first = re.search(r'<option value="([^"]+)"', select).group(1)
    assert first == "UTC"
    europe = select.split('<optgroup label="Europe">')[1].split("</optgroup>")[0]
    assert '<option value="Europe/Berlin">Berlin</option>' in europe
    offered = set(re.findall(r'<option value="([^"]+)"', select))
    assert offered == zoneinfo.available_timezones() - {"localtime", "Factory"}
    german = _field(_invitation("de"), "time_zone")
    assert '<optgroup label="Europa">' in german


def test_each_colour_is_a_radio_with_a_swatch_of_that_colour_and_its_name():
    page = _invitation()
    colours = _field(page, "colour")
    assert "<legend>Your colour</legend>" in colours
    choices = re.findall(
        r'<label class="choice" for="[^"]+"><input type="radio" name="colour" value="(\w+)"[^>]*>'
        r'<span class="swatch" style="background: (#[0-9a-fA-F]+)" aria-hidden="true"></span><span>(\w+)</span>',
        colours,
    )
    assert len(choices) == 6
    for value, swatch, name in choices:
        assert swatch == hex_of(value)
        assert name.lower() == value
