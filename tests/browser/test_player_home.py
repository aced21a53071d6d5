"""A player's home in Chromium: "send me my links", the link from the dev
mailbox, the page of the player's games with a way into each seat, and
ending the link from its page."""

from __future__ import annotations

import pytest

from tests.browser.people import Mailbox
from tests.factories import started_game

pytestmark = pytest.mark.django_db(transaction=True)

PLAYER = "p1@example.com"  # seat 1 of every started_game


def test_a_player_opens_the_page_of_all_their_games_and_ends_its_link(site):
    games = [started_game(3), started_game(4)]
    page = site.page()
    page.goto(site.url + "/link/")
    page.fill("input[name=email]", PLAYER)
    with page.expect_navigation():
        page.get_by_role("button", name="Send").click()
    assert "/link/sent/" in page.url

    mailbox = Mailbox(site)
    mailbox.open_message(PLAYER, "seat links")
    home = mailbox.page.locator("pre a[href*='/h/']").first.get_attribute("href")
    page.goto(home)
    for game in games:
        assert page.locator(f"#game-{game.public_id}").count() == 1, page.locator("body").inner_text()
    site.screenshot(page, "player-home")

    with page.expect_navigation():
        page.locator(f"#game-{games[1].public_id} h2 a").click()
    assert "/s/" in page.url and "Galopp Royal" in page.locator("h1").inner_text()

    page.goto(home)
    # An ended link answers 410 Gone, with a page that says why.
    with site.checks.expecting(410):
        with page.expect_navigation():
            page.get_by_role("button", name="End this link now").click()
        assert "It was ended from its page." in page.locator("body").inner_text()
        assert page.goto(home).status == 410
