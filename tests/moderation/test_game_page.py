"""A game's moderation page: board, secrets, state, and each seat's timeline."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth.models import Group, User

from games import engine
from games.models import Notification
from games.narrate import colour_name
from games.services.game_state import load_state
from games.services.sweeps import deadlines_sweep
from tests.factories import seat_at, started_game, tokens
from tests.web.integrity_helpers import game_over

from .helpers import act, mover, text_of

pytestmark = pytest.mark.django_db


def test_a_moderator_sees_the_board_every_secret_and_the_full_state(mod_client, game):
    response = mod_client.get(f"/mod/g/{game.public_id}/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    page = text_of(response)
    assert "<svg" in page
    assert "Secrets (moderators only)" in page
    state = load_state(game)
    names = {seat.position: seat.name for seat in game.seats.all()}
    named = {"goof": "Goof", "devil": "Devil"}
    for position, hand in zip(state.auction.bidders, state.auction.hands, strict=True):
        codes = [state.ruleset.code_of(c) for c in hand]
        assert f"{names[position]}: {' '.join(named.get(code, code) for code in codes)}" in page
        assert f"{state.colours[position]}: " not in page, "a colour stands in for the player's name"
    assert "Full state (JSON)" in page
    for seat in game.seats.all():
        assert f"<{seat.email}>" in page


def test_a_moderator_playing_in_the_game_sees_only_their_own_seats_view(client, game):
    player = User.objects.create_user("modplayer", email="P1@Example.com", password="x" * 12, is_staff=True)
    player.groups.add(Group.objects.get_or_create(name="moderators")[0])
    client.force_login(player)
    page = text_of(client.get(f"/mod/g/{game.public_id}/"))
    assert "You play in this game, so you see only your own seat's view." in page
    assert "Secrets (moderators only)" not in page
    assert "Full state (JSON)" not in page
    # Their own lot card is there, as on their seat page; the others' are not.
    assert "Your secret cards in this lot:" in page
    response = client.get(f"/mod/g/{game.public_id}/")
    assert response.context["observation"] == engine.observe(load_state(game), 1)
    assert response.context["secrets"] is None and response.context["state_json"] is None


def test_each_seats_timeline_shows_emails_bounces_opened_links_and_who_decided(mod_client, moderator):
    with time_machine.travel(datetime(2027, 8, 2, 10, 0, tzinfo=UTC), tick=False) as traveller:
        mod_client.force_login(moderator)
        game = started_game(4)
        first = mover(game)
        # A deadline passes: the timer decides.
        traveller.move_to(game.deadline)
        deadlines_sweep()
        # The next player decides on their page.
        second = mover(game)
        mod_client.post(f"/s/{tokens(game)[second]}/act", {"version": game.decision_version, "action": "pass"})
        game.refresh_from_db()
        # A moderator applies the default for the third.
        third = mover(game)
        act(mod_client, game, "default", reason="asked to")
        # The fourth is put on autopilot, which then decides for it.
        fourth = mover(game)
        act(mod_client, game, "autopilot_on", seat=fourth, reason="asked to")
        # One seat's email bounced; one seat opened its page.
        bounced = seat_at(game, first)
        Notification.objects.filter(seat=bounced).update(status="failed", last_error="550 mailbox unavailable")
        bounced.email_undeliverable = True
        bounced.save()
        mod_client.post(f"/s/{tokens(game)[second]}/seen")

        response = mod_client.get(f"/mod/g/{game.public_id}/")
        timelines = {line["seat"].position: line for line in response.context["timelines"]}
        page = text_of(response)

    actors = {p: {r.actor for r in timelines[p]["decisions"]} for p in timelines}
    assert "deadline" in actors[first]
    assert "player" in actors[second]
    assert "moderator" in actors[third]
    assert "autopilot" in actors[fourth]
    assert set().union(*actors.values()) == {"deadline", "player", "moderator", "autopilot"}
    # Each decision told as the history tells it, by the player's name; the
    # notation stays at hand for the moderator as the line's title.
    names = {seat.position: seat.name for seat in game.seats.all()}
    # (The autopilot's strong computer player may bid where the others passed.)
    for position, decided_by, title in (
        (first, "deadline (timer)", "pass"),
        (second, "player (web)", "pass"),
        (third, "moderator (moderator)", "pass"),
        (fourth, "autopilot (server)", "(?:pass|bid [0-9]+)"),
    ):
        told = (
            rf'<span title="{title}">{re.escape(names[position])} (?:passed|bid)[^<]*</span> — {re.escape(decided_by)}'
        )
        assert re.search(told, page), (names[position], decided_by)
    # Emails with their state; the bounce with its error.
    assert all(n.status == "failed" for n in timelines[first]["emails"])
    assert "failed (550 mailbox unavailable)" in page
    # Each email by what it was, not by the outbox's internal kind.
    assert "game start — failed" in page
    assert "email undeliverable" in page
    # The opened link.
    assert timelines[second]["seat"].link_opened_at is not None
    assert sum(line["seat"].link_opened_at is not None for line in timelines.values()) == 1
    assert "Autopilot (put on by a moderator)" in page


def test_an_unknown_game_is_404_for_a_moderator(mod_client):
    assert mod_client.get("/mod/g/no-such-game/").status_code == 404
    assert mod_client.post("/mod/g/no-such-game/act", {"action": "pause", "reason": "x"}).status_code == 404


def test_a_finished_games_page_opens_with_the_final_standings_by_name(mod_client):
    game = game_over()
    # Each line names the colour in words (beside its chip), then the player.
    names = {seat.position: f"{colour_name(seat.colour)} {seat.name}" for seat in game.seats.all()}
    page = text_of(mod_client.get(f"/mod/g/{game.public_id}/"))
    main = page[page.index("<main>") :]
    assert main.index("<section") == main.index('<section class="box decide" id="standings"')
    assert main.index('id="standings"') < main.index("<svg")
    assert main.count("Final standings") == 1
    standings = main[main.index('id="standings"') : main.index("</section>")]
    state = load_state(game)
    listed = [re.sub(r"<[^>]+>", "", line) for line in re.findall(r"<li>(.*?) — ", standings)]
    assert listed == [names[position] for position in engine.standings(state)]


def test_the_moderation_log_names_the_seats_player_not_a_colour_or_a_code(mod_client, game):
    position = mover(game)
    seat = seat_at(game, position)
    act(mod_client, game, "extend", reason="the player is travelling", hours=6)
    page = text_of(mod_client.get(f"/mod/g/{game.public_id}/"))
    log = page.split("Moderation log", 1)[1]
    assert f"A moderator extended {seat.name}'s deadline by 6 h: the player is travelling" in log
    assert "extend 6" not in log
