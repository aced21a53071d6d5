"""Shorter journeys in Chromium: a decision with JavaScript off, the seat page
on a phone, a click that comes after the decision was made, and a moderator
unsticking a stalled game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import Game
from games.services.game_state import load_state
from tests.browser.people import Mailbox, Player, sign_in_moderator
from tests.browser.plan import Move
from tests.factories import play_until, started_game, tokens

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
FINGER = 44  # CSS px


def mover_link(site, game: Game) -> tuple[str, int]:
    position = engine.to_move(load_state(game))
    return f"{site.url}/s/{tokens(game)[position]}/", position


def test_a_decision_works_with_javascript_off(site, chromium):
    game = started_game(3)
    link, _ = mover_link(site, game)
    context = chromium.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        site.checks.watch(page)
        page.goto(link)
        with page.expect_navigation():
            page.locator("#decide button[value=pass]").click()
        assert "Done: you passed." in page.locator("body").inner_text()
    finally:
        context.close()
    game.refresh_from_db()
    assert game.decision_version > 0 and game.version > 1
    site.checks.assert_clean()


def _overflow_and_small_controls(page) -> tuple[int, list[str]]:
    return page.evaluate(
        """(finger) => {
            const overflow = document.documentElement.scrollWidth - window.innerWidth;
            const small = [];
            for (const el of document.querySelectorAll(
                    "#decide button, #decide select, #decide input, form#form-arrange select, "
                    + "form#form-arrange button")) {
                if (el.type === "hidden") continue;
                // A radio is hit through its label.
                const target = (el.type === "radio" || el.type === "checkbox") ? el.closest("label") : el;
                const height = target ? target.getBoundingClientRect().height : 0;
                if (height < finger) small.push(`${el.tagName} ${el.name || el.textContent.trim()}: ${height}px`);
            }
            return [overflow, small];
        }""",
        FINGER,
    )


@pytest.mark.parametrize("decision", ["bid", "roll", "push", "remove"])
def test_a_seat_page_fits_a_phone_and_every_decision_control_is_finger_sized(site, decision):
    game = started_game(4)
    play_until(game, lambda state: engine.decision_kind(state) == decision)
    link, position = mover_link(site, game)
    player = Player(site, link, f"Player {position}", viewport=PHONE)
    page = player.open()
    assert player.decision_kind() == decision
    assert page.locator("#decide a[href*='/rules/#']").count(), f"the {decision} form does not link to the rules"
    overflow, small = _overflow_and_small_controls(page)
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at 390px"
    assert not small, "controls smaller than a finger: " + "; ".join(small)
    drawn, smallest = page.evaluate(
        """() => {
            const sizes = [];
            for (const text of document.querySelectorAll("svg text")) {
                const svg = text.ownerSVGElement;
                const width = svg.getBoundingClientRect().width;
                // The desktop's wide board is not drawn on a phone: only drawings shown count.
                if (width === 0) continue;
                const scale = width / svg.viewBox.baseVal.width;
                sizes.push(parseFloat(getComputedStyle(text).fontSize) * scale);
            }
            return [sizes.length, Math.min(...sizes)];
        }"""
    )
    assert drawn > 0, "the seat page draws no labelled board"
    assert smallest >= 12, f"a label on the board renders at {smallest:.1f}px at 390px"
    site.screenshot(page, f"phone-{decision}")
    site.checks.assert_clean()


def test_a_click_after_the_decision_was_made_says_what_happened_and_why(site):
    game = started_game(3)
    link, position = mover_link(site, game)
    mailbox = Mailbox(site)
    # The turn email's link, opened on the laptop; the phone decides first.
    emailed = mailbox.seat_link(f"p{position}@example.com", "your bid")
    assert emailed.split("?")[0] == link
    laptop = Player(site, link, "laptop")
    laptop.open()
    # Half typed on the laptop: the page keeps it when the game moves on
    # (it would reload itself otherwise: games/static/games/follow.js).
    laptop.page.locator("#decide input[name=amount]").fill("2")
    phone = Player(site, link, "phone", viewport=PHONE)
    phone.decide(Move(position, "pass", "start auction"))
    # The emailed link, opened once more after the phone decided, says what happened since.
    reader = Player(site, emailed, "the email again")
    reader.open()
    reader.expect_text("Since this email was sent")
    reader.expect_text(f"Player {position} passed.")
    site.screenshot(reader.page, "emailed-link-after-the-decision")
    assert laptop.page.locator("#decide input[name=amount]").input_value() == "2"
    with site.checks.expecting(409), laptop.page.expect_navigation() as navigation:
        laptop.page.get_by_role("button", name="Bid", exact=True).click()
    assert navigation.value.status == 409
    body = laptop.page.locator("body").inner_text()
    assert "Already decided" in body
    assert "This decision was already made. Nothing was changed" in body
    assert f"Player {position} passed." in body
    with laptop.page.expect_navigation():
        laptop.page.get_by_role("link", name="See the game as it stands now").click()
    assert laptop.page.url == link
    site.screenshot(laptop.page, "stale-click-then-current-page")
    site.checks.assert_clean()


def test_a_deadline_default_is_named_as_the_reason_a_click_came_too_late(site, settings):
    # The click comes before the page next asks whether the game moved on
    # (games/static/games/follow.js would reload it then).
    settings.PAGE_FOLLOW_SECONDS = 3600
    game = started_game(3)
    link, position = mover_link(site, game)
    laptop = Player(site, link, "laptop")
    laptop.open()
    from games.services.decisions import deadline_expire

    deadline_expire(game_id=game.pk, seen_version=game.decision_version)
    with site.checks.expecting(409), laptop.page.expect_navigation():
        laptop.page.locator("#decide button[value=pass]").click()
    body = laptop.page.locator("body").inner_text()
    assert f"Player {position} passed." in body
    assert "your deadline passed and the default was applied for you" in body
    site.checks.assert_clean()


def test_a_moderator_finds_a_stalled_game_and_extends_its_deadline(site):
    stalled = started_game(3)
    Game.objects.filter(pk=stalled.pk).update(deadline=timezone.now() - timedelta(hours=2))
    started_game(3)  # a game that needs nothing
    page = sign_in_moderator(site)
    row = page.locator("tr", has=page.get_by_role("link", name=stalled.public_id))
    assert row.count() == 1, page.locator("body").inner_text()
    assert "overdue" in row.inner_text().lower()
    with page.expect_navigation():
        row.get_by_role("link", name=stalled.public_id).click()
    form = page.locator("form", has=page.locator("input[name=action][value=extend]"))
    form.locator("input[name=hours]").fill("12")
    form.locator("input[name=reason]").fill("the host asked for more time")
    with page.expect_navigation():
        form.get_by_role("button", name="Extend").click()
    site.screenshot(page, "moderator-game")

    stalled.refresh_from_db()
    assert stalled.deadline > timezone.now()
    link, _ = mover_link(site, stalled)
    player = Player(site, link, "a player")
    player.open()
    history = player.page.locator("section", has=player.page.get_by_role("heading", name="What happened"))
    assert "the host asked for more time" in history.inner_text()
    assert "extended" in history.inner_text()
    site.checks.assert_clean()


def test_the_rules_page_fits_a_phone_and_its_drawings_stay_legible(site):
    page = site.page(viewport=PHONE)
    page.goto(f"{site.url}/rules/")
    overflow, drawn, smallest = page.evaluate(
        """() => {
            const overflow = document.documentElement.scrollWidth - window.innerWidth;
            const sizes = [];
            for (const text of document.querySelectorAll("svg text")) {
                const svg = text.ownerSVGElement;
                // The drawn size: the font size in user units times the SVG's scale on screen.
                const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                sizes.push(parseFloat(getComputedStyle(text).fontSize) * scale);
            }
            return [overflow, sizes.length, Math.min(...sizes)];
        }"""
    )
    assert overflow <= 0, f"the rules page scrolls sideways by {overflow}px at 390px"
    assert drawn > 0, "the rules page draws no labelled pictures"
    assert smallest >= 12, f"a label in a drawing renders at {smallest:.1f}px"
    site.screenshot(page, "rules-phone")
    site.checks.assert_clean()
