"""A chat webhook in Chromium: added on the seat page, its signing secret
read from its own page, and a signed delivery of the player's turn arriving
at a receiver on the loopback through the real worker."""

from __future__ import annotations

import re

import pytest

from tests.factories import next_turn_of, started_game, tokens
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def private_webhooks(celery_env, settings):
    # The receiver is on the loopback, which webhooks may not reach unless this is on.
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    celery_env.env["WEBHOOK_ALLOW_PRIVATE_ADDRESSES"] = "true"


def test_a_player_adds_a_signed_webhook_and_is_told_of_their_turn(private_webhooks, site, receiver):
    game = started_game(3)
    page = site.page()
    page.goto(f"{site.url}/s/{tokens(game)[1]}/")
    # On the seat's settings page, one link from the seat page.
    with page.expect_navigation():
        page.locator("nav.seat-nav a[href=settings]").click()
    page.get_by_label("JSON, signed").check()
    page.get_by_label("Webhook address").fill(receiver.url("/hook"))
    with page.expect_navigation():
        page.get_by_role("button", name="Add the webhook").click()
    # Added, the player lands on the webhook's own page, with its secret.
    text = page.locator("body").inner_text()
    assert "Your webhook is added." in text
    receiver.secrets["/hook"] = re.search(
        r"Signing secret \(keep it on your receiver only\): ([0-9a-f]{64})", text
    ).group(1)
    site.screenshot(page, "webhook-page")
    with page.expect_navigation():
        page.get_by_role("link", name="Back to your seat's settings").click()
    assert "Details and signing secret" in page.locator("#webhooks").inner_text()

    # The others play until seat 1 is to decide anew: its webhook is told.
    next_turn_of(game, 1)
    wait_until(lambda: any(a.json["event"] == "turn" for a in receiver.bodies("/hook")), timeout=60)
    turns = [a for a in receiver.bodies("/hook") if a.json["event"] == "turn"]
    assert all(a.verified for a in receiver.bodies("/hook"))
    assert turns[-1].json["turn"]["yours"] is True
    assert tokens(game)[1] not in turns[-1].body.decode()
