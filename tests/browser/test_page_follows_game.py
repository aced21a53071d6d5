"""An open game page follows the game (issue 29, point 4) in Chromium, with
the live server and the real worker: another seat's decision shows on the
seat and spectator pages without anyone reloading; a bid half typed in is
kept and its box says the game moved on; a hidden tab asks nothing until it
is shown again; without scripts nothing of it shows."""

from __future__ import annotations

import time

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games import engine
from games.models import ActionRecord, Game
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.seat_settings import language_set
from tests.factories import seat_at, started_game, tokens

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
NOTICE = "The game moved on: reload to see the new position."


def page_version(page) -> int:
    return int(page.locator("script[src*='follow.js']").get_attribute("data-version"))


def mover(game: Game) -> int:
    game.refresh_from_db()
    return engine.to_move(load_state(game))


def decide_elsewhere(game: Game, position: int, text: str = "pass") -> Game:
    """The seat decides as from another device (its email reply), not on
    any page the test has open."""
    game.refresh_from_db()
    decision_submit(
        seat=seat_at(game, position), text=text, seen_version=game.decision_version, source=ActionRecord.Source.EMAIL
    )
    game.refresh_from_db()
    return game


def wait_for(condition, seconds: float, what: str, page=None) -> None:
    """Until ``condition()``; with ``page``, its events keep being handed to
    the test while waiting (a plain sleep holds them back)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        if page is not None:
            page.wait_for_timeout(50)
        else:
            time.sleep(0.1)


def open_page(site, url: str, viewport: dict = DESKTOP):
    """The page, with a mark in its window that only a reload clears."""
    page = site.page(viewport)
    page.goto(url)
    page.evaluate("window.openedOnce = true")
    return page


def reloaded(page) -> bool:
    """Whether the page was loaded again since open_page; False while it is
    still loading."""
    from playwright.sync_api import Error

    try:
        page.wait_for_load_state()
        return not page.evaluate("window.openedOnce === true")
    except Error:  # asked in the middle of the reload
        return False


def test_another_seats_decision_shows_on_the_open_seat_and_spectator_pages_without_reload(site, settings):
    settings.PAGE_FOLLOW_SECONDS = 1
    game = started_game(3)
    links = tokens(game)
    first = mover(game)
    others = [position for position in links if position != first]
    seat_pages = {position: open_page(site, f"{site.url}/s/{links[position]}/") for position in others}
    spectator = open_page(site, f"{site.url}/g/{game.public_id}/")
    for page in [*seat_pages.values(), spectator]:
        assert page_version(page) == game.version
        assert page.locator("#decide").count() == 0
    time.sleep(2.5)  # polled, unchanged: nothing reloads
    assert not any(reloaded(page) for page in [*seat_pages.values(), spectator])

    game = decide_elsewhere(game, first)
    now_to_move = mover(game)
    assert now_to_move in seat_pages
    for page in [*seat_pages.values(), spectator]:
        wait_for(lambda page=page: reloaded(page), 8, "an open page did not follow the decision")
        assert page_version(page) == game.version
    # By what the page shows: the seat now to move has its decision box.
    to_move = seat_pages[now_to_move]
    assert to_move.locator("#decide h2").inner_text() == "Your bid"
    site.screenshot(to_move, "follow-seat-after-another-decided-1280")
    site.checks.assert_clean()


@pytest.mark.parametrize(
    ("language", "viewport", "name"),
    [("en", DESKTOP, "1280"), ("de", PHONE, "390-de"), ("en", PHONE, "390"), ("de", DESKTOP, "1280-de")],
)
def test_a_half_typed_bid_is_kept_and_its_box_says_the_game_moved_on(site, settings, language, viewport, name):
    settings.PAGE_FOLLOW_SECONDS = 1
    game = started_game(3)
    position = mover(game)
    language_set(seat=seat_at(game, position), language=language)
    page = open_page(site, f"{site.url}/s/{tokens(game)[position]}/", viewport)
    amount = page.locator("#decide input[name=amount]")
    notice = page.locator("#stale-notice")
    amount.fill("3")
    page.locator("body").click(position={"x": 5, "y": 5})  # typed, then looked away: not focused any more
    time.sleep(2)
    assert not notice.is_visible(), "the notice showed while the game stood still"

    # The same seat decides from its email: the page's bid is for a position gone.
    decide_elsewhere(game, position)
    notice.wait_for(state="visible", timeout=8000)
    with translation.override(language):
        assert gettext(NOTICE) in notice.inner_text()
    assert amount.input_value() == "3"
    assert not reloaded(page)
    # Above the form being filled in, inside its box, in the first screen.
    assert page.locator("#decide #stale-notice + form input[name=amount]").count() == 1
    box = notice.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"]
    time.sleep(2)
    assert not reloaded(page), "the page reloaded over the player's input after all"
    site.screenshot(page, f"follow-stale-bid-{name}")
    site.checks.assert_clean()


HIDE = """
Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
document.dispatchEvent(new Event("visibilitychange"));
"""
# Answers before the page, asking at once, can reload under the question.
SHOW = """() => {
delete document.hidden;
delete document.visibilityState;
document.dispatchEvent(new Event("visibilitychange"));
return document.hidden;
}"""


def test_a_hidden_tab_asks_nothing_and_asks_at_once_when_shown(site, settings):
    settings.PAGE_FOLLOW_SECONDS = 2
    game = started_game(3)
    first = mover(game)
    watcher = next(position for position in tokens(game) if position != first)
    page = open_page(site, f"{site.url}/s/{tokens(game)[watcher]}/")
    asked: list[float] = []
    page.on("request", lambda request: asked.append(time.monotonic()) if request.url.endswith("/version") else None)
    wait_for(lambda: len(asked) >= 2, 6, "the shown page does not ask for the version", page)

    page.evaluate(HIDE)
    assert page.evaluate("document.hidden") is True
    page.wait_for_timeout(500)  # a question already on its way may still go
    hidden_at = len(asked)
    decide_elsewhere(game, first)
    page.wait_for_timeout(7000)  # three turns and more; the events of them reach the test
    assert len(asked) == hidden_at, f"a hidden tab asked {len(asked) - hidden_at} times"
    assert not reloaded(page)

    shown = time.monotonic()
    assert page.evaluate(SHOW) is False
    wait_for(lambda: len(asked) > hidden_at, 1, "the page did not ask at once when shown", page)
    assert asked[hidden_at] - shown < 1
    wait_for(lambda: reloaded(page), 5, "the shown page did not follow the decision")
    game.refresh_from_db()
    assert page_version(page) == game.version
    site.checks.assert_clean()


def test_without_scripts_the_page_shows_no_notice_and_follows_by_reload(site, chromium, settings):
    settings.PAGE_FOLLOW_SECONDS = 1
    game = started_game(3)
    first = mover(game)
    context = chromium.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        site.checks.watch(page)
        page.goto(f"{site.url}/s/{tokens(game)[first]}/")
        assert not page.locator("#stale-notice").is_visible()
        page.locator("#decide input[name=amount]").fill("2")
        game = decide_elsewhere(game, first)
        time.sleep(2)
        assert page.locator("#decide input[name=amount]").input_value() == "2"
        assert not page.locator("#stale-notice").is_visible()
        page.reload()
        assert page_version(page) == game.version
        assert page.locator("#decide").count() == 0
    finally:
        context.close()
    site.checks.assert_clean()
