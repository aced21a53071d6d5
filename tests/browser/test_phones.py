"""A phone (390 px wide) in Chromium, in English and in German: no page of a
whole game scrolls sideways, and everything a thumb must hit is at least
44 px tall. The pages come from tests/browser/tour.py, one game in each
state a player meets."""

from __future__ import annotations

import pytest

from tests.browser.audit import PHONE, overflow, small_targets
from tests.browser.tour import walk

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def webhook_on_loopback(settings):
    # The tour's webhook page needs a webhook; its address is on the loopback.
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True


def test_no_page_scrolls_sideways_on_a_phone_and_every_control_is_a_finger_tall(
    site, chromium, screenshots, webhook_on_loopback
):
    def check(page, stop, language):
        if language == "de":
            site.screenshot(page, f"phone-de-{stop.name}")
            # The first table at its own size: the players' table used to be 431 px wide in German.
            if page.locator("main table").count():
                page.locator("main table").first.screenshot(path=str(screenshots / f"phone-de-{stop.name}-table.png"))
        return overflow(page) + small_targets(page)

    problems = walk(site, chromium, check, PHONE)
    site.checks.assert_clean()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
