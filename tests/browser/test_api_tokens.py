"""API tokens in Chromium: from the seat page to the token page, a token
made (its secret shown once), the API answering it, and the token ended."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.factories import started_game, tokens

pytestmark = pytest.mark.django_db(transaction=True)


def api_status(url: str, secret: str) -> int:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {secret}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status if json.load(response)["seat"] else 0
    except urllib.error.HTTPError as error:
        return error.code


def test_a_player_makes_a_token_on_the_seat_page_uses_it_and_ends_it(site):
    game = started_game(3)
    page = site.page()
    page.goto(f"{site.url}/s/{tokens(game)[1]}/")
    # On the seat's settings page, one link from the seat page.
    with page.expect_navigation():
        page.locator("nav.seat-nav a[href=settings]").click()
    with page.expect_navigation():
        page.get_by_role("link", name="API tokens for this seat").click()
    assert page.locator("h1").inner_text() == "API tokens"
    page.fill("input[name=label]", "my phone")
    with page.expect_navigation():
        page.get_by_role("button", name="Make a token").click()
    secret = page.locator("#token-secret").inner_text()
    assert secret.startswith("vrs_")
    assert "my phone" in page.locator("body").inner_text()
    site.screenshot(page, "api-token-made")
    assert api_status(f"{site.url}/api/v1/seat", secret) == 200

    # Reloading the list shows the token but never its secret again.
    page.goto(f"{site.url}/s/{tokens(game)[1]}/api/")
    assert secret not in page.content()
    with page.expect_navigation():
        page.get_by_role("button", name="End this token").click()
    assert "The token is ended" in page.locator("body").inner_text()
    assert api_status(f"{site.url}/api/v1/seat", secret) == 401
