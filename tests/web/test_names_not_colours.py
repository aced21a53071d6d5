"""A player is named by their name on every page, never by a colour alone."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from games import engine
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from tests.factories import seat_at, started_game, tokens

pytestmark = pytest.mark.django_db


def test_the_auction_names_the_high_bidder_by_name():
    game = started_game(4)
    bidder = seat_at(game, engine.to_move(load_state(game)))
    decision_submit(seat=bidder, text="bid 7", seen_version=game.decision_version)
    for path in (f"/s/{tokens(game)[0]}/", f"/g/{game.public_id}/"):
        page = html.unescape(Client().get(path).content.decode())
        assert f"High bid: 7 by {bidder.name}." in page, path
