"""Player API tokens in Chromium: from the player's home to the tokens page,
a token made (its secret shown once, on a phone too), the API listing the
address's games with it, and the token ended."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from games.services.home import home_link_issue
from games.services.links import home_token
from tests.factories import started_game

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def my_games(url: str, secret: str) -> tuple[int, list]:
    request = urllib.request.Request(f"{url}/api/v1/me/games", headers={"Authorization": f"Bearer {secret}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)["games"]
    except urllib.error.HTTPError as error:
        return error.code, []


def test_a_player_makes_a_player_token_on_a_phone_lists_the_games_with_it_and_ends_it(site):
    game = started_game(3)
    address = game.seats.get(position=1).email
    home = home_token(home_link_issue(email=address))
    page = site.page()
    page.set_viewport_size(PHONE)
    page.goto(f"{site.url}/h/{home}/")
    with page.expect_navigation():
        page.get_by_role("link", name="Player API tokens: let a program list your games and play your seats").click()
    assert page.locator("h1").inner_text() == "Player API tokens"
    page.fill("input[name=label]", "my bot")
    with page.expect_navigation():
        page.get_by_role("button", name="Make a token").click()
    secret = page.locator("#token-secret").inner_text()
    assert secret.startswith("vrp_")
    # The secret, the longest word of the page, must not push it sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    site.screenshot(page, "player-token-made-phone")

    status, games = my_games(site.url, secret)
    assert status == 200
    assert [listed["id"] for listed in games] == [game.public_id]

    page.goto(f"{site.url}/h/{home}/api/")
    assert secret not in page.content()
    with page.expect_navigation():
        page.get_by_role("button", name="End this token").click()
    assert my_games(site.url, secret)[0] == 401
