"""Open games in Chromium (issue 34): a listed game found in the lobby,
joined by two strangers through their confirmation emails, filled by a
computer player when the wait ends (the clock moved by its column, the
sweep run by the real worker) and played to its first decision; a
link-only game in German, not listed, joined through a confirmation link
that a mail scanner's GET and HEAD leave untouched; and too many requests
from one client refused with a clear page and nothing kept."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext

from games.models import Game, JoinRequest, Notification, Seat
from games.services.enqueue import enqueue_now
from games.web.limits import JOINS_PER_CLIENT
from tests.browser.people import Mailbox, Player
from tests.browser.plan import Move
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

HOST = ("Hélène", "helene@example.com")
STRANGERS = [("Ann", "ann@example.net", "blue"), ("Bob", "bob@example.org", "green")]


def german(english: str) -> str:
    with translation.override("de"):
        translated = gettext(english)
    assert translated != english, f"{english!r} has no German translation"
    return translated


def body(page) -> str:
    return page.locator("body").inner_text()


def host_creates_an_open_game(site, page, *, listed: bool, words=lambda text: text) -> None:
    page.goto(site.url + "/new/")
    page.fill("input[name=host_name]", HOST[0])
    page.fill("input[name=host_email]", HOST[1])
    page.select_option("select[name=open_seats]", "3" if listed else "2")
    page.check(f"input[name=listing][value={'listed' if listed else 'link'}]")
    page.select_option("select[name=open_wait_hours]", "1")
    page.check("input[name=when_open][value=fill]")
    with page.expect_navigation():
        page.get_by_role("button", name=words("Create the game and send the invitations")).click()
    assert "/new/sent/" in page.url, body(page)


def ask_to_join(page, name: str, email: str, words=lambda text: text) -> None:
    page.fill("input[name=name]", name)
    page.fill("input[name=email]", email)
    with page.expect_navigation():
        page.get_by_role("button", name=words("Send me the link to join")).click()


def confirmation_link(mailbox: Mailbox, email: str, subject: str) -> str:
    mailbox.open_message(email, subject)
    return mailbox.page.locator("pre a[href*='/open/c/']").first.get_attribute("href")


def scanner_opens(site, link: str) -> None:
    """What a mail scanner does: GET and HEAD, no cookies, no button."""
    for method in (site.context.request.get, site.context.request.head):
        assert method(link).status == 200


def hold_seat(page, link: str, words=lambda text: text) -> str:
    page.goto(link)
    with page.expect_navigation():
        page.get_by_role("button", name=words("Hold my seat")).click()
    assert "/s/" in page.url, body(page)
    return page.url


def test_two_strangers_find_a_listed_game_join_it_and_a_computer_player_fills_the_last_seat(site):
    host_page = site.page()
    host_creates_an_open_game(site, host_page, listed=True)
    game = Game.objects.get()
    mailbox = Mailbox(site)
    host = Player(site, mailbox.seat_link(HOST[1], "invites you to Galopp Royal"), HOST[0])
    host.take_seat("red", "Europe/Paris")

    people = [host]
    for name, email, colour in STRANGERS:
        page = site.page()
        page.goto(site.url + "/")
        with page.expect_navigation():
            page.get_by_role("link", name="No one to play with? Join an open game, or press “Play now”.").click()
        row = page.locator("#open-games tbody tr", has_text=HOST[0])
        assert row.count() == 1, body(page)
        assert "@" not in body(page)
        site.screenshot(page, f"open-lobby-{name}")
        with page.expect_navigation():
            row.get_by_role("link", name="Join").click()
        ask_to_join(page, name, email)
        assert "Check your email" in body(page)

        link = confirmation_link(mailbox, email, "confirm your address to join")
        scanner_opens(site, link)
        assert not Seat.objects.filter(email=email).exists()
        seat_link = hold_seat(page, link)
        assert "Your seat is held." in body(page)
        person = Player(site, seat_link, name)
        person.take_seat(colour, "Europe/Berlin")
        people.append(person)
    site.screenshot(people[-1].page, "open-game-joined")
    game.refresh_from_db()
    assert (game.status, game.open_seats) == (Game.Status.INVITING, 1)

    # An hour passes: the wait's end is a column, and the worker runs the sweep.
    Game.objects.filter(pk=game.pk).update(open_until=timezone.now() - timedelta(seconds=1))
    enqueue_now("games.open_waits_sweep")
    wait_until(lambda: Game.objects.get(pk=game.pk).status == Game.Status.RUNNING, timeout=60)
    (computer,) = Seat.objects.filter(game=game).exclude(computer="")
    assert computer.name == "Strong computer 1"
    for email in [HOST[1]] + [email for _name, email, _colour in STRANGERS]:
        mailbox.open_message(email, "the game has started")

    for person in people:
        person.names = {seat.colour: seat.name for seat in game.seats.all()}
    first_decision(people)


def first_decision(people: list[Player], timeout: float = 60) -> None:
    """The first person whose turn it is bids nothing (the computer player may move first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for person in people:
            person.open()
            if person.decision_kind() == "bid":
                person.decide(Move(0, "pass", ""), reload=False)
                return
        time.sleep(0.3)
    raise AssertionError("nobody was asked a first decision")


def test_a_german_link_only_game_is_not_listed_a_scanner_holds_no_seat_and_too_many_requests_are_refused(
    site, chromium
):
    context = chromium.new_context(locale="de-DE", timezone_id="Europe/Berlin")
    context.set_default_timeout(30_000)
    site.context = context
    page = site.page()
    host_creates_an_open_game(site, page, listed=False, words=german)
    game = Game.objects.get()
    assert not game.listed

    page.goto(site.url + "/open/")
    assert page.locator("h1").inner_text() == german("Open games")
    assert HOST[0] not in body(page)
    assert german("No open game fits. Press “Play now” below and the next person who does joins yours.") in body(page)

    mailbox = Mailbox(site)
    mailbox.open_message(HOST[1], f"#{game.public_id}")
    join = mailbox.page.locator("pre a[href*='/open/j/']").first.get_attribute("href")
    told = german(
        "Your game has open seats. Strangers join it with this link (pass it on; it holds no seat of yours):"
    )
    assert told in mailbox.page.locator("pre").inner_text()
    assert game.language == "de"

    stranger = site.page()
    stranger.goto(join)
    assert stranger.locator("html").get_attribute("lang") == "de"
    ask_to_join(stranger, "Anke", "anke@example.de", words=german)
    assert german("Check your email") in body(stranger)
    link = confirmation_link(mailbox, "anke@example.de", "bestätige deine Adresse")
    scanner_opens(site, link)
    assert not Seat.objects.filter(email="anke@example.de").exists()
    assert JoinRequest.objects.get(email="anke@example.de").confirmed_at is None
    hold_seat(stranger, link, words=german)
    assert german("Your seat is held. Take it now: choose your colour and your time zone.") in body(stranger)
    assert stranger.locator("h1").inner_text() == german("An invitation to Galopp Royal")

    # The same client types in address after address.
    for number in range(1, JOINS_PER_CLIENT.count):
        stranger.goto(join)
        ask_to_join(stranger, f"Fake {number}", f"fake{number}@example.com", words=german)
        assert german("Check your email") in body(stranger)
    stranger.goto(join)
    with site.checks.expecting(429):
        ask_to_join(stranger, "One too many", "toomany@example.com", words=german)
        assert german("Too many requests") in body(stranger)
    assert not JoinRequest.objects.filter(email="toomany@example.com").exists()
    assert not Notification.objects.filter(to_email="toomany@example.com").exists()
    site.screenshot(stranger, "open-game-too-many-de")
    context.close()
