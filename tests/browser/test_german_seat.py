"""A player whose browser speaks German (issue 12): the invitation reads
German and offers German as the seat's language, and after taking the seat
they bid on a German page and are told so in German. Every expected text is
the catalogue's translation of the English one, so the test follows the
catalogue rather than a copy of it."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import get_language_info, gettext

from games import engine
from games.models import ActionRecord, Game, Seat
from games.services.setup import game_create, seat_accept
from tests.browser.people import Mailbox
from tests.factories import COLOURS, play_until

pytestmark = pytest.mark.django_db(transaction=True)

GERMAN_EMAIL = "anke@example.com"


def _german(english: str) -> str:
    with translation.override("de"):
        translated = gettext(english)
    assert translated != english, f"{english!r} has no German translation"
    return translated


def _body(page) -> str:
    return page.locator("body").inner_text()


def _take_the_other_seats(game: Game) -> None:
    taken = set(Seat.objects.filter(game=game, accepted_at__isnull=False).values_list("colour", flat=True))
    free = [colour for colour in COLOURS if colour not in taken]
    for seat in Seat.objects.filter(game=game, accepted_at__isnull=True).order_by("position"):
        seat_accept(seat=seat, colour=free.pop(0), display_name=f"Player {seat.position}", time_zone="Europe/London")


def test_a_german_browser_gets_a_german_invitation_and_bids_on_a_german_page(site, chromium):
    game = game_create(
        host_name="Host",
        host_email="host@example.com",
        other_emails=[GERMAN_EMAIL, "p2@example.com"],
        decision_hours=24,
        ruleset_name="classic",
    )
    link = Mailbox(site).seat_link(GERMAN_EMAIL, f"#{game.public_id}")

    context = chromium.new_context(locale="de-DE", timezone_id="Europe/Berlin")
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        site.checks.watch(page)
        page.goto(link)
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.locator("h1").inner_text() == _german("An invitation to Galopp Royal")
        language = page.locator("select[name=language]")
        assert language.input_value() == "de", "the browser's language is not the one offered first"
        assert language.locator("option:checked").inner_text().strip() == get_language_info("de")["name_local"]
        page.locator("input[name=colour]").first.check()
        page.fill("input[name=display_name]", "Anke")
        page.select_option("select[name=time_zone]", "Europe/Berlin")
        with page.expect_navigation():
            page.get_by_role("button", name=_german("Take my seat")).click()
        assert _german("You have taken your seat.") in _body(page)
        seat = Seat.objects.get(game=game, email=GERMAN_EMAIL)
        assert seat.language == "de"

        _take_the_other_seats(game)
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        game = play_until(
            game,
            lambda state: engine.to_move(state) == seat.position and engine.decision_kind(state) == "bid",
        )
        version = game.version

        page.goto(link)
        assert page.locator("html").get_attribute("lang") == "de"
        decide = page.locator("#decide")
        assert decide.locator("h2").inner_text() == _german("Your bid")
        amount = decide.locator("input[name=amount]").get_attribute("min")
        decide.locator("input[name=amount]").fill(amount)
        with page.expect_navigation():
            decide.get_by_role("button", name=_german("Bid"), exact=True).click()
        body = _body(page)
        site.screenshot(page, "german-seat")
    finally:
        context.close()

    game.refresh_from_db()
    assert game.version > version, "the bid did not move the game"
    last = ActionRecord.objects.filter(game=game, seat=seat.position).order_by("-seq").first()
    assert last is not None and last.action == f"bid {amount}"
    site.checks.assert_clean()
    _assert_german_confirmation(body, amount)


def _assert_german_confirmation(body: str, amount: str) -> None:
    done = _german("Done: %(decision)s.")
    # The German frame first, so that a failure says which half is English.
    frame = done.split("%(decision)s")[0].strip()
    assert frame in body, f"no German confirmation {frame!r} on the page:\n{body[:2000]}"
    expected = done % {"decision": _german("you bid %(amount)s") % {"amount": amount}}
    assert expected in body, f"the confirmation does not say {expected!r}:\n{body[:2000]}"
