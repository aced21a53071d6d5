"""The answers to a reply by email: threaded under it, and a refusal that
helps the player write the decision right."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games import engine
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.inbound import inbound_store
from tests.factories import play_until

from .helpers import mails_to, mover, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)


def _answer_to(seat, first_line: str, *, address: str | None = None, message_id: str = "<r1@client.example>"):
    address = address or turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    inbound_store(raw=reply(to=address, sender=seat.email, first_line=first_line, message_id=message_id))
    (answer,) = mails_to(seat.email)
    return answer


@pytest.mark.parametrize("first_line", ["pass", "hello there"])
def test_the_answer_to_a_reply_is_threaded_under_it(first_line):
    seat = mover(started_game())
    answer = _answer_to(seat, first_line, message_id="<thread-me@client.example>")
    headers = answer.message()
    assert headers["In-Reply-To"] == "<thread-me@client.example>"
    assert headers["References"] == "<thread-me@client.example>"


def test_a_refused_bid_quotes_what_was_read_and_lists_every_bid_and_pass():
    game = started_game()
    seat = mover(game)
    gold = load_state(game).gold[seat.position]
    answer = _answer_to(seat, "i bid loads please")
    assert "a bid must be a whole number, not 'loads'" in answer.body
    assert f"I read 'i bid loads please'; write one of: bid 0 … bid {gold} / pass" in answer.body
    html = answer.alternatives[0][0]
    assert f"write one of: bid 0 … bid {gold} / pass" in html


def test_a_refused_push_lists_every_push_of_this_game_and_push_none_last():
    game = play_until(started_game(), lambda state: engine.decision_kind(state) == "push")
    seat = mover(game)
    answer = _answer_to(seat, "push them all")
    state = engine.state_from_json(game.state)
    pushes = [engine.format_action(action) for action in engine.legal_actions(state)]
    line = next(line for line in answer.body.splitlines() if line.startswith("I read"))
    assert line.endswith("write one of: " + " / ".join(sorted(pushes, key=lambda text: text == "push none")))
    assert line.endswith(" / push none") and len(pushes) >= 2


def test_a_refusal_names_the_colours_as_the_pages_do_not_by_their_codes():
    game = play_until(started_game(), lambda state: engine.decision_kind(state) == "push")
    answer = _answer_to(mover(game), "push purple")
    assert "'purple' is not a colour (Red, Yellow, Green, Blue, White, Black)" in answer.body


def test_a_reply_that_came_too_late_shows_the_board_and_whose_turn_it_is():
    game = started_game()
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    decision_submit(seat=seat, text="bid 2", seen_version=game.decision_version)
    now = mover(game)
    answer = _answer_to(seat, "bid 5", address=address)
    assert "This decision was already made" in answer.body
    assert "Auction: high bid 2" in answer.body
    assert f"It is {now.name}'s turn." in answer.body


def test_a_refused_removal_shows_one_example_as_removals_are_too_many_to_list():
    game = play_until(started_game(), lambda state: engine.decision_kind(state) == "remove")
    answer = _answer_to(mover(game), "remove all of them")
    line = next(line for line in answer.body.splitlines() if line.startswith("I read"))
    assert "write for example: remove " in line and " / " not in line


def test_a_refusal_offers_the_decision_links_of_the_turn_email_and_one_of_them_decides():
    """Two decisions in one reply are refused; the answer offers the links a
    turn email has, each to a confirmation page whose button decides."""
    from django.test import Client

    game = started_game()
    seat = mover(game)
    answer = _answer_to(seat, "bid 3\nbid 5")
    assert "two different decisions" in answer.body
    links = [line.rsplit(": ", 1)[1] for line in answer.body.splitlines() if "/confirm?" in line]
    passing = next(link for link in links if "action=pass" in link)
    html = answer.alternatives[0][0]
    assert passing.replace("&", "&amp;") in html
    client = Client()
    path = passing.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200
    version = game.decision_version
    shown = page.content.decode()
    form = dict(re.findall(r'<input type="hidden" name="(version|action)" value="([^"]*)"', shown))
    assert form == {"version": str(version), "action": "pass"}
    client.post("/" + path.split("confirm", 1)[0] + "act", form)
    game.refresh_from_db()
    assert game.decision_version > version
