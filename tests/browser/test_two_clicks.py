"""Two clicks from the email (issue 29): the turn email, as the real worker
sends it into the dev mailbox, offers the likely decisions as links; one
click opens a confirmation page, a second presses its button, and the
decision is applied. Clicks are counted from the email's HTML part."""

from __future__ import annotations

import random

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games import engine
from games.models import ActionRecord, Game, Notification, Seat
from games.narrate import describe_notation
from games.selectors.decision import roll_told
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from tests.browser.people import Mailbox
from tests.factories import play_until, started_game
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def reach(done, tries: int = 6) -> Game:
    for attempt in range(tries):
        game = play_until(started_game(3), done, random.Random(attempt))
        if game.status == Game.Status.RUNNING and done(load_state(game)):
            return game
    raise AssertionError("the point was never reached")


def awaiting(kind: str):
    return lambda state: state.phase == "race" and state.race.awaiting == kind


def mover(game: Game) -> Seat:
    game.refresh_from_db()
    return Seat.objects.select_related("game").get(game=game, position=engine.to_move(load_state(game)))


def open_turn_email(site, seat: Seat):
    """The seat's newest turn email, once the worker has sent it, shown as
    its HTML part in the dev mailbox: where the clicks are counted from."""
    game = seat.game
    game.refresh_from_db()
    row = wait_until(
        lambda: Notification.objects.filter(
            seat=seat, kind="turn", version=game.decision_version, status=Notification.Status.SENT
        ).first(),
        timeout=40,
        what=f"the turn email to {seat.email} at version {game.decision_version}",
    )
    mailbox = Mailbox(site)
    mailbox.page.set_viewport_size(DESKTOP)
    mailbox.open_message(seat.email, row.subject)
    return mailbox.show_html()


class Clicks:
    """Every click the person makes, each one a page load."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def click(self, locator) -> None:
        with self.page.expect_navigation():
            locator.click()
        self.count += 1


def decide_from_the_email(site, seat: Seat, link_text: str, notation: str, shot: str) -> Clicks:
    game = seat.game
    game.refresh_from_db()
    version = game.version
    page = open_turn_email(site, seat)
    site.screenshot(page, f"email-{shot}")
    clicks = Clicks(page)
    clicks.click(page.locator("a.quick", has_text=link_text).first)
    assert "/confirm?" in page.url
    confirm = page.locator("#confirm")
    assert confirm.count(), page.locator("body").inner_text()
    seat_link = confirm.locator(f"a[href='/s/{page.url.split('/s/')[1].split('/')[0]}/']")
    assert seat_link.count() == 1, "the confirmation page does not link to the whole seat page"
    screenshots(site, page.url, shot)
    clicks.click(confirm.locator("button[type=submit]"))
    body = page.locator("body").inner_text()
    names = {s.colour: s.name for s in Seat.objects.filter(game=game)}
    decided_at = game.decision_version
    game.refresh_from_db()
    with translation.override(seat.language):
        # A roll is answered with the die and where it took the chair.
        told = roll_told(game, seat.colour, decided_at) if notation == "roll" else None
        done = gettext("Done: %(decision)s.") % {"decision": told or describe_notation(notation, names)}
    assert done in body, f"the seat page does not say {done!r}:\n{body[:1500]}"
    assert game.version > version, "the decision did not move the game"
    last = ActionRecord.objects.filter(game=game, seat=seat.position).order_by("-seq").first()
    assert last is not None and last.action == notation
    assert clicks.count <= 2
    return clicks


def screenshots(site, url: str, name: str) -> None:
    """The confirmation page at desktop and phone size (opening it again
    changes nothing), checked to fit the phone without sideways scrolling."""
    for size, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = site.page(viewport)
        page.goto(url)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {size}px"
        button = page.locator("#confirm button[type=submit]")
        if button.count():
            box = button.bounding_box()
            assert box["y"] + box["height"] <= viewport["height"], f"{name}: the button is below the first screen"
            assert box["height"] >= 44, f"{name}: the button is {box['height']}px high"
        site.screenshot(page, f"{name}-{size}")
        page.close()


@pytest.mark.parametrize("kind", ["pass", "bid", "roll", "push"])
def test_a_decision_from_the_turn_email_takes_two_clicks(site, kind):
    game = started_game(3) if kind in ("pass", "bid") else reach(awaiting(kind))
    seat = mover(game)
    state = load_state(game)
    if kind == "pass":
        text, notation = "Pass (out of this auction)", "pass"
    elif kind == "bid":
        high = state.auction.high_bid
        lowest = 0 if high is None else high + 1
        text, notation = f"Bid {lowest} gold", f"bid {lowest}"
    elif kind == "roll":
        text, notation = "Roll the die", "roll"
    else:
        target = next(
            colour
            for position, colour in enumerate(state.colours)
            if position != seat.position and state.race.status[position] == "racing"
        )
        name = Seat.objects.get(game=game, colour=target).name
        text, notation = f"Push {name} (", f"push {target}"
    clicks = decide_from_the_email(site, seat, text, notation, f"confirm-{kind}-en")
    assert clicks.count == 2
    site.checks.assert_clean()


def test_a_german_seat_gets_german_links_and_decides_in_two_clicks(site):
    game = started_game(3)
    first = mover(game)
    Seat.objects.filter(game=game).update(language="de")
    # The next turn email is written after the switch, so it reads German.
    decision_submit(seat=first, text="pass", seen_version=game.decision_version)
    seat = mover(game)
    assert seat.language == "de"
    page = open_turn_email(site, seat)
    links = [text.strip() for text in page.locator("a.quick").all_inner_texts()]
    with translation.override("de"):
        passing = gettext("Pass (out of this auction)")
        bid = gettext("Bid %(amount)s gold")
    assert passing in links, links
    assert "Pass (out of this auction)" not in links and not any(link.startswith("Bid ") for link in links), links
    lowest = links[0]
    amount = next(word for word in lowest.split() if word.isdigit())
    assert lowest == bid % {"amount": amount}
    page.close()
    decide_from_the_email(site, seat, lowest, f"bid {amount}", "confirm-bid-de")
    site.checks.assert_clean()


def test_a_stale_confirmation_says_what_happened_and_its_button_changes_nothing(site):
    game = started_game(3)
    seat = mover(game)
    page = open_turn_email(site, seat)
    with page.expect_navigation():
        page.locator("a.quick", has_text="Pass (out of this auction)").click()
    confirm_url = page.url
    # The seat bids on its page in another tab before pressing the button.
    decision_submit(seat=seat, text="bid 3", seen_version=game.decision_version)
    game.refresh_from_db()
    version = game.version
    with site.checks.expecting(409), page.expect_navigation() as navigation:
        page.locator("#confirm button[type=submit]").click()
    assert navigation.value.status == 409
    assert "This decision was already made. Nothing was changed" in page.locator("body").inner_text()
    # The same link opened again says what happened instead of offering the button.
    with site.checks.expecting(409):
        response = page.goto(confirm_url)
        assert response.status == 409
        body = page.locator("body").inner_text()
        assert "The game has moved on since this email was sent" in body
        assert f"{seat.name} bid 3." in body
        assert not page.locator("#confirm button").count()
        site.screenshot(page, "confirm-stale-en-1280")
    game.refresh_from_db()
    assert game.version == version, "a stale confirmation changed the game"
    assert not ActionRecord.objects.filter(game=game, seat=seat.position, action="pass").exists()
    site.checks.assert_clean()
