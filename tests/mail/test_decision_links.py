"""A turn email offers its likely decisions as links (issue 29, two clicks
from the email): each opens a confirmation page with one button, and opening
it changes nothing, because mail scanners open every link in a message
(docs/architecture.md#links-in-email)."""

from __future__ import annotations

import html
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.translation import gettext

from games import engine
from games.models import ActionRecord, Game, Seat
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.links import seat_token
from games.services.notices import reminder_send
from tests.factories import play_until
from tests.web.integrity_helpers import awaiting, snapshot
from tests.web.test_integrity_reads import is_read_only

from .helpers import mails_to, mover, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)

CONFIRM = re.compile(r'href="([^"]*/confirm\?[^"]*)"')


def confirm_links(message) -> list[str]:
    """The decision links of an email's HTML part, as a mail program shows them."""
    (body, _mimetype), = message.alternatives
    return [html.unescape(href) for href in CONFIRM.findall(body)]


def decisions(links: list[str]) -> list[tuple]:
    """Each link's decision: (action, amount or target or None)."""
    found = []
    for link in links:
        query = parse_qs(urlsplit(link).query)
        found.append((query["action"][0], (query.get("amount") or query.get("target") or [None])[0]))
    return found


def local_path(link: str) -> str:
    assert link.startswith(settings.SITE_URL), link
    return link[len(settings.SITE_URL):]


def game_reaching(done, players: int = 3, tries: int = 6) -> Game:
    """A game of mail test seats played at random until ``done(state)``."""
    for attempt in range(tries):
        game = play_until(started_game(players), done, random.Random(attempt))
        if game.status == Game.Status.RUNNING and done(load_state(game)):
            return game
    raise AssertionError("the point was never reached")


def test_a_bid_email_links_the_lowest_bid_two_higher_amounts_and_pass():
    game = started_game(3)
    seat = mover(game)
    state = load_state(game)
    assert engine.decision_kind(state) == "bid"
    links = confirm_links(turn_mail(seat))
    lowest = 0 if state.auction.high_bid is None else state.auction.high_bid + 1
    gold = state.gold[seat.position]
    amounts = [str(a) for a in (lowest, lowest + 2, lowest + 5) if a <= gold]
    assert len(amounts) == 3, "the test wants a seat with gold for all three amounts"
    assert decisions(links) == [("bid", a) for a in amounts] + [("pass", None)]
    token = seat_token(seat)
    for link in links:
        query = parse_qs(urlsplit(link).query)
        assert query["version"] == [str(game.decision_version)]
        assert urlsplit(link).path == f"/s/{token}/confirm", "the link does not carry the seat's own link token"
    body = turn_mail(seat).body
    for link in links:
        assert link in body, "the text part lacks a link the HTML part has"


def test_a_bid_email_offers_no_amount_beyond_the_seats_gold():
    game = started_game(3)
    seat = mover(game)
    state = dict(game.state)
    state["gold"] = [3] * 3
    Game.objects.filter(pk=game.pk).update(state=state)
    # The next email is written from the game as it is now: pass, and read
    # the email of the next seat.
    decision_submit(seat=seat, text="pass", seen_version=game.decision_version)
    game.refresh_from_db()
    following = mover(game)
    lowest = load_state(game).auction.high_bid
    lowest = 0 if lowest is None else lowest + 1
    assert decisions(confirm_links(turn_mail(following))) == [
        ("bid", str(a)) for a in (lowest, lowest + 2) if a <= 3
    ] + [("pass", None)]


def test_a_roll_email_links_the_roll():
    game = game_reaching(awaiting("roll"))
    assert decisions(confirm_links(turn_mail(mover(game)))) == [("roll", None)]


def test_a_push_email_links_each_racing_chair_and_no_one():
    game = game_reaching(awaiting("push"))
    seat = mover(game)
    race = load_state(game).race
    racing = [
        colour
        for position, colour in enumerate(load_state(game).colours)
        if position != seat.position and race.status[position] == "racing"
    ]
    message = turn_mail(seat)
    assert decisions(confirm_links(message)) == [("push", c) for c in racing] + [("push", "none")]
    (body, _mimetype), = message.alternatives
    first = Seat.objects.get(game=game, colour=racing[0])
    assert f"Push {first.name} (" in body, "a push link does not name the chair's player"


def test_a_removal_email_has_no_decision_links_only_the_seat_link():
    game = game_reaching(lambda state: engine.decision_kind(state) == "remove")
    message = turn_mail(mover(game))
    assert confirm_links(message) == []
    assert f"/s/{seat_token(mover(game))}/" in message.body


def test_a_reminder_offers_the_same_decision_links():
    game = started_game(3)
    seat = mover(game)
    assert reminder_send(game_id=game.pk, seen_version=game.decision_version) == 1
    reminder = mails_to(seat.email, "reminder")[-1]
    assert decisions(confirm_links(reminder)) == decisions(confirm_links(turn_mail(seat)))


def test_a_german_seat_gets_german_link_texts():
    game = started_game(3)
    seat = mover(game)
    Seat.objects.filter(pk=seat.pk).update(language="de")
    decision_submit(seat=seat, text="pass", seen_version=game.decision_version)
    # The auction comes back round to the German seat after the others decide.
    game = play_until(game, lambda state: engine.to_move(state) == seat.position, random.Random(3))
    seat.refresh_from_db()
    message = turn_mail(seat)
    (body, _mimetype), = message.alternatives
    with translation.override("de"):
        wanted = [gettext("Roll the die"), gettext("Pass (out of this auction)"), gettext("Push no one back")]
        bid = gettext("Bid %(amount)s gold").split("%(amount)s")[0].strip()
    kind = engine.decision_kind(load_state(game))
    if kind == "bid":
        assert bid in body and wanted[1] in body, body
    assert any(text in body for text in wanted + [bid]), "no German link text in a German seat's email"
    assert "Bid 0 gold" not in body and "Pass (out of this auction)" not in body


def test_fetching_every_link_of_a_turn_email_changes_no_row(django_capture_on_commit_callbacks):
    # One game at a time: the seats of both games share their addresses.
    for make in (lambda: started_game(3), lambda: game_reaching(awaiting("push"))):
        game = make()
        message = turn_mail(mover(game))
        links = confirm_links(message) + re.findall(r"https?://\S+", message.body)
        assert len(links) > 2
        before = snapshot()
        for link in links:
            for method in ("get", "head"):
                with (
                    django_capture_on_commit_callbacks(execute=True) as callbacks,
                    CaptureQueriesContext(connection) as queries,
                ):
                    response = getattr(Client(), method)(local_path(link))
                assert response.status_code == 200, (method, link, response.status_code)
                writes = [q["sql"] for q in queries.captured_queries if not is_read_only(q["sql"])]
                assert writes == [] and callbacks == [], (method, link)
        assert snapshot() == before


def _form_fields(page: str) -> dict:
    form = page.split('id="form-confirm"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


@pytest.mark.parametrize("point", ["bid", "pass", "push"])
def test_the_confirmation_page_names_the_decision_and_its_button_applies_it(point):
    game = started_game(3) if point != "push" else game_reaching(awaiting("push"))
    seat = mover(game)
    links = confirm_links(turn_mail(seat))
    link = next(link for link in links if decisions([link])[0][0] == point)
    action, value = decisions([link])[0]
    client = Client()
    page = client.get(local_path(link))
    assert page.status_code == 200
    text = page.content.decode()
    if action == "bid":
        assert f"Bid {value} gold on this lot:" in text
        assert "Your secret cards in this lot:" in text
        assert f"If no one bids more, you pay {value} gold" in text
    elif action == "pass":
        assert "Pass: you leave this auction" in text
    else:
        target = Seat.objects.get(game=game, colour=value)
        position = load_state(game).race.positions[target.position]
        assert f"Push {target.name} (" in text and f"from space {position} " in text
    assert f'href="/s/{seat_token(seat)}/"' in text, "no link to the whole seat page"
    fields = _form_fields(text)
    assert fields["version"] == str(game.decision_version)
    version = game.version
    response = client.post(f"/s/{seat_token(seat)}/act", fields)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version > version
    last = ActionRecord.objects.filter(game=game, seat=seat.position).order_by("-seq").first()
    assert last.action == ("pass" if action == "pass" else f"{action} {value}")


def test_a_stale_confirmation_says_what_happened_and_offers_no_button():
    game = started_game(3)
    seat = mover(game)
    lowest_bid = confirm_links(turn_mail(seat))[0]
    # The seat decides on its page (a second tab) before it opens the link.
    decision_submit(seat=seat, text="bid 4", seen_version=game.decision_version)
    before = snapshot()
    response = Client().get(local_path(lowest_bid))
    text = response.content.decode()
    assert response.status_code == 409
    assert "The game has moved on since this email was sent" in text
    assert f"{seat.name} bid 4." in text, "the stale page does not say what happened"
    assert 'id="form-confirm"' not in text and "<button type=\"submit\">Bid" not in text
    assert snapshot() == before


def test_a_bid_the_rules_no_longer_allow_is_refused_with_the_reason():
    game = started_game(3)
    seat = mover(game)
    gold = load_state(game).gold[seat.position]
    link = confirm_links(turn_mail(seat))[0].replace("amount=0", f"amount={gold + 1}")
    before = snapshot()
    response = Client().get(local_path(link))
    assert response.status_code == 409
    assert "This decision cannot be made:" in response.content.decode()
    assert 'id="form-confirm"' not in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize(
    "change",
    [
        lambda q: q.replace("action=bid", "action=remove"),
        lambda q: q.replace("amount=0", "amount=lots"),
        lambda q: q.replace("action=bid", "action=push&target=purple"),
        lambda q: re.sub(r"version=\d+", "version=99999", q),
        lambda q: re.sub(r"version=\d+", "version=-1", q),
        lambda q: q.replace("action=bid", "action="),
        lambda q: "",
    ],
)
def test_a_forged_or_malformed_confirmation_link_says_so_and_changes_nothing(change):
    game = started_game(3)
    seat = mover(game)
    path, query = local_path(confirm_links(turn_mail(seat))[0]).split("?")
    before = snapshot()
    response = Client().get(f"{path}?{change(query)}")
    assert response.status_code == 400
    assert "This link cannot decide anything" in response.content.decode()
    assert snapshot() == before


def test_a_confirmation_link_with_another_token_opens_no_seat_or_not_this_decision():
    game = started_game(3)
    seat = mover(game)
    path, query = local_path(confirm_links(turn_mail(seat))[0]).split("?")
    before = snapshot()
    assert Client().get(f"/s/not-a-token/confirm?{query}").status_code == 404
    other = Seat.objects.select_related("game").filter(game=game).exclude(pk=seat.pk).first()
    response = Client().get(f"/s/{seat_token(other)}/confirm?{query}")
    assert response.status_code == 409
    assert "This decision is not yours to make now." in response.content.decode()
    assert snapshot() == before
