"""Handing a seat to a new player in the middle of an auction."""

from __future__ import annotations

import random
import re

import pytest
from django.core import mail

from games import engine
from games.models import ActionRecord, Game, Seat, SeatHolder
from games.services.game_state import load_state
from games.services.links import reply_address, seat_by_reply_address, seat_token, token_hash
from games.templatetags.games_tags import bearer
from tests.factories import play_steps, seat_at, tokens
from tests.mail.helpers import addresses
from tests.web.pages import forms_of, path_of, seat_links

from .helpers import act, text_of

pytestmark = pytest.mark.django_db

SECRET_CARDS = re.compile(r"Your secret cards in this lot:</strong>((?:\s*<span class=\"card\">[^<]*</span>)+)")


def secret_cards_shown(html: str) -> list[str]:
    match = SECRET_CARDS.search(html)
    return re.findall(r'<span class="card">([^<]*)</span>', match.group(1)) if match else []


def test_a_new_player_takes_over_a_bidder_mid_auction_and_the_old_link_says_handed_over(
    mod_client, game, django_capture_on_commit_callbacks
):
    # One bid or pass made: the start auction is under way.
    game = play_steps(game, 1, random.Random(5))
    state = load_state(game)
    assert state.auction is not None and engine.decision_kind(state) == "bid"
    position = engine.to_move(state)
    assert position in state.auction.active
    hand = [bearer(state.ruleset.code_of(card)) for card in state.auction.hand_of(position)]
    assert hand

    old_tokens = tokens(game)
    old_seat = seat_at(game, position)
    old_reply = reply_address(old_seat, game.decision_version)
    assert secret_cards_shown(mod_client.get(f"/s/{old_tokens[position]}/").content.decode()) == hand
    before = Game.objects.values("version", "decision_version", "state", "deadline", "status").get(pk=game.pk)
    seats_before = list(Seat.objects.filter(game=game).values_list("position", "colour", "display_name"))
    records_before = ActionRecord.objects.filter(game=game).count()

    with django_capture_on_commit_callbacks(execute=True):
        act(mod_client, game, "replace", seat=position, email="takeover@example.net", reason="player left")

    # The new player's email carries the link, which opens the seat with its secret cards.
    (handover,) = mail.outbox
    assert addresses(handover) == ["takeover@example.net"]
    (link,) = set(seat_links(handover.body))
    new_page = mod_client.get(path_of(link))
    assert new_page.status_code == 200
    assert secret_cards_shown(new_page.content.decode()) == hand
    assert any(f.action.endswith("/act") for f in forms_of(new_page)), "no decision form"

    # The old link (and every path under it) now says the seat was handed over.
    old = old_tokens[position]
    for response in (
        mod_client.get(f"/s/{old}/"),
        mod_client.get(f"/s/{old}/state.json"),
        mod_client.post(f"/s/{old}/act", {"version": game.decision_version, "action": "pass"}),
        mod_client.post(f"/s/{old}/help", {"message": "hello"}),
    ):
        assert response.status_code == 410
        assert "This seat was handed over" in text_of(response)
        assert not secret_cards_shown(response.content.decode())
    # Its reply address stops working too.
    assert seat_by_reply_address(old_reply) is None

    # Nothing else changed.
    assert Game.objects.values("version", "decision_version", "state", "deadline", "status").get(pk=game.pk) == before
    assert list(Seat.objects.filter(game=game).values_list("position", "colour", "display_name")) == seats_before
    assert ActionRecord.objects.filter(game=game).count() == records_before
    for other, token in old_tokens.items():
        if other != position:
            assert mod_client.get(f"/s/{token}/").status_code == 200

    # Who played which part stays known.
    holder = SeatHolder.objects.get(seat__game=game, seat__position=position)
    assert holder.email == f"p{position}@example.com"
    assert holder.token_hash == token_hash(old)
    assert (holder.from_seq, holder.until_seq) == (0, game.version)
    moderation_page = text_of(mod_client.get(f"/mod/g/{game.public_id}/"))
    assert f"p{position}@example.com (up to step {game.version})" in moderation_page
    assert "<takeover@example.net>" in moderation_page

    # The new player decides for the seat.
    new_token = path_of(link).split("/")[2]
    assert new_token == seat_token(seat_at(game, position))
    response = mod_client.post(f"/s/{new_token}/act", {"version": game.decision_version, "action": "pass"}, follow=True)
    assert "Done: you passed." in text_of(response)
    record = ActionRecord.objects.get(game=game, seq=before["version"] + 1)
    assert (record.seat, record.actor, record.action) == (position, "player", "pass")


def test_a_seat_replaced_twice_keeps_both_earlier_players_in_order(mod_client, game):
    act(mod_client, game, "replace", seat=1, email="second@example.net", reason="left")
    game = play_steps(game, 2, random.Random(1))
    act(mod_client, game, "replace", seat=1, email="third@example.net", reason="left too")
    holders = list(
        SeatHolder.objects.filter(seat__game=game).order_by("from_seq").values_list("email", "from_seq", "until_seq")
    )
    assert holders[0][0] == "p1@example.com" and holders[1][0] == "second@example.net"
    assert holders[0][2] == holders[1][1], "the second player's part starts where the first one's ended"
    assert holders[1][2] == game.version
    assert seat_at(game, 1).email == "third@example.net"
