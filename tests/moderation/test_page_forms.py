"""The moderators' game page (issue 29): a computer seat shows its level and
offers no seat action (it has no address, no link and nobody to replace);
every moment is written one way with its zone; each action is a form of its
own with its own reason, so a reason typed for one action never goes with
another."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.test import Client

from games.models import Game, ModerationEntry, Seat
from games.services.moderation import game_pause
from games.services.setup import game_create, seat_accept
from tests.web.pages import forms_of

from .helpers import act, text_of

pytestmark = pytest.mark.django_db

MOMENT = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")
# What Django writes for a moment given no format ("Dec. 3, 2026, 3:09 p.m.").
DJANGO_DEFAULT = re.compile(r"\b(?:[A-Z][a-z]{2}\.?|[A-Z][a-z]+) \d{1,2}, \d{4}|\d (?:a|p)\.m\.")


def german_game_with_computers() -> Game:
    """Set up by a German host: the computers' names once were stored in German."""
    game = game_create(
        host_name="Quarvenik", host_email="host@example.com", other_emails=["guest@example.com"],
        decision_hours=24, ruleset_name="classic", language="de", computers=["simple", "strong"],
    )
    people = Seat.objects.filter(game=game, computer="").order_by("position")
    for seat, colour in zip(people, ("red", "yellow"), strict=True):
        seat_accept(seat=seat, colour=colour, display_name=f"Person {seat.position}", time_zone="Europe/Berlin")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def seat_section(page: str, position: int) -> str:
    return page.split(f'id="seat-{position}"')[1].split("</section>")[0]


def test_a_computer_seat_shows_its_level_in_the_moderators_language_and_offers_no_seat_action(mod_client):
    game = german_game_with_computers()
    page = text_of(mod_client.get(f"/mod/g/{game.public_id}/"))
    for seat in Seat.objects.filter(game=game).exclude(computer=""):
        section = seat_section(page, seat.position)
        level = "simple computer player" if seat.computer == "simple" else "strong computer player"
        number_name = "Simple computer 1" if seat.computer == "simple" else "Strong computer 1"
        assert number_name in section and level in section
        assert "Computer 1" not in section, "the name is in the host's language, not the moderator's"
        assert "&lt;&gt;" not in section and "<>" not in section
        assert 'name="action"' not in section, "a computer seat was offered an action"
    person = seat_section(page, 0)
    for action in ("resend", "autopilot_on", "replace"):
        assert f'value="{action}"' in person
    assert "<host@example.com>" in page


def test_the_dashboard_names_a_computer_seat_by_its_level_without_an_empty_address(mod_client):
    game = german_game_with_computers()
    page = text_of(mod_client.get("/mod/", {"q": game.public_id}))
    assert "Simple computer 1 (simple computer player)" in page
    assert "<>" not in page


@pytest.mark.parametrize("action", ["resend", "replace", "autopilot_on"])
def test_a_seat_action_posted_for_a_computer_seat_changes_nothing(mod_client, action):
    game = german_game_with_computers()
    computer = Seat.objects.get(game=game, computer="simple")
    before = Seat.objects.filter(pk=computer.pk).values().get()
    response = act(mod_client, game, action, seat=computer.position, email="new@example.com", follow=True)
    assert response.status_code == 200
    assert "computer player" in text_of(response)
    assert Seat.objects.filter(pk=computer.pk).values().get() == before
    assert not ModerationEntry.objects.filter(game=game).exists()


def test_every_moment_on_the_moderators_pages_is_written_one_way_with_its_zone(mod_client, moderator):
    with time_machine.travel("2026-12-03 15:09Z", tick=False):
        game = german_game_with_computers()
        guest = Seat.objects.get(game=game, email="guest@example.com")
        # The page records its opening with a POST once shown in a browser.
        Seat.objects.filter(pk=guest.pk).update(link_opened_at="2026-12-03T15:09:00Z")
        game_pause(moderator=moderator, game=game, reason="a question of the rules")
    with time_machine.travel("2026-12-08 15:09Z", tick=False):
        page = text_of(mod_client.get(f"/mod/g/{game.public_id}/"))
        dashboard = text_of(mod_client.get("/mod/"))
    assert "2026-12-03 15:09 UTC" in page, "the page's opening is not written with its zone"
    assert not DJANGO_DEFAULT.search(page), DJANGO_DEFAULT.search(page)
    assert "paused since 2026-12-03 15:09 UTC" in dashboard
    for text in (page, dashboard):
        written = re.findall(r"\d{4}-\d{2}-\d{2}[^<]{0,12}", text)
        assert written and all(MOMENT.match(each) for each in written), written


def test_each_action_is_a_form_of_its_own_with_its_own_reason(mod_client, game):
    page = mod_client.get(f"/mod/g/{game.public_id}/").content.decode()
    posting = [form for form in forms_of(page) if form.method == "post" and form.action.endswith("/act")]
    actions = []
    for form in posting:
        values = form.values()
        named_buttons = [value for name, value, _text in form.buttons if name == "action"]
        assert not named_buttons, f"a form chooses its action by button: {named_buttons}"
        assert "action" in values, form
        reasons = [f for f in form.fields if f[1] == "reason"]
        assert len(reasons) == 1 and reasons[0][3], f"{values['action']} has no reason of its own"
        actions.append(values["action"])
    assert {"extend", "pause", "default", "abort", "resend", "autopilot_on", "replace"} <= set(actions)
    assert actions.count("pause") == 1 and actions.count("default") == 1


def test_a_reason_typed_for_pause_pauses_and_applies_no_default(mod_client, game):
    page = mod_client.get(f"/mod/g/{game.public_id}/").content.decode()
    (pause,) = [form for form in forms_of(page) if form.values().get("action") == "pause"]
    mod_client.post(pause.action, pause.values() | {"reason": "waiting for an answer"})
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    assert list(ModerationEntry.objects.filter(game=game).values_list("action", "reason")) == [
        ("pause", "waiting for an answer")
    ]


def test_a_german_moderator_reads_the_computer_players_in_german(moderator):
    game = game_create(
        host_name="Host", host_email="host@example.com", other_emails=["guest@example.com"],
        decision_hours=24, ruleset_name="classic", language="en", computers=["strong"],
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(moderator)
    page = text_of(client.get(f"/mod/g/{game.public_id}/"))
    assert "Starker Computer 1" in page and "Strong computer 1" not in page
