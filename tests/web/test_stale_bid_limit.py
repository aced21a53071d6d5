"""A bid limit set "for this auction only" ends with that auction: the seat's
settings page stops showing it and saving the orders form does not bring it back."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import engine
from games.services.game_state import load_state
from tests.factories import play_until, seat_at, started_game, tokens
from tests.web.pages import forms_of

pytestmark = pytest.mark.django_db


def _orders_form(client: Client, token: str):
    page = client.get(f"/s/{token}/settings")
    assert page.status_code == 200
    (form,) = [f for f in forms_of(page) if f.action.endswith("/orders")]
    return form


def _limit_shown(form) -> str | None:
    (value,) = [value for kind, name, value, _ in form.fields if name == "bid_limit"]
    return value


def test_a_limit_for_an_auction_that_has_ended_is_not_shown_and_not_armed_again():
    game = started_game(players=3)
    first = engine.auction_key(load_state(game))
    assert first is not None
    client, token = Client(), tokens(game)[2]

    form = _orders_form(client, token)
    old_page = {**form.values(), "bid_limit": "7"}
    assert client.post(f"/s/{token}/orders", old_page).status_code == 302
    seat = seat_at(game, 2)
    assert seat.standing_orders["bid_limit"] == 7
    assert _limit_shown(_orders_form(client, token)) == "7"

    def next_auction(state):
        key = engine.auction_key(state)
        return key is not None and key != first

    play_until(game, next_auction, random.Random(3))
    assert next_auction(load_state(game))

    # The seat page no longer offers the old limit ...
    form = _orders_form(client, token)
    assert _limit_shown(form) in (None, "")
    # ... so saving the form for another reason leaves no limit.
    assert client.post(f"/s/{token}/orders", {**form.values(), "auto_roll": "on"}).status_code == 302
    orders = seat_at(game, 2).standing_orders
    assert orders.get("auto_roll") is True
    assert "bid_limit" not in orders

    # A page left open since the first auction does not arm it either.
    assert client.post(f"/s/{token}/orders", old_page).status_code == 302
    assert "bid_limit" not in seat_at(game, 2).standing_orders


def test_a_limit_set_in_the_current_auction_is_shown_and_kept_when_saved_again():
    game = started_game(players=3)
    client, token = Client(), tokens(game)[2]
    form = _orders_form(client, token)
    client.post(f"/s/{token}/orders", {**form.values(), "bid_limit": "9"})
    form = _orders_form(client, token)
    assert _limit_shown(form) == "9"
    client.post(f"/s/{token}/orders", {**form.values(), "removal": "default"})
    orders = seat_at(game, 2).standing_orders
    assert orders["bid_limit"] == 9 and orders["bid_auction"] == engine.auction_key(load_state(game))
