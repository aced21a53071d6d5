"""One person against three computer players in Chromium: the new-game form
with computer seats and no other address, the invitation in the dev
mailbox, the seat taken, the first decisions clicked while the computer
players answer from the real worker, then standing orders for the rest, to
the final standings."""

from __future__ import annotations

import time

import pytest

from games.models import ActionRecord, Game
from tests.browser.people import Mailbox, Player
from tests.browser.plan import Move

pytestmark = pytest.mark.django_db(transaction=True)

HOST = ("Hélène", "helene@example.com")
CLICKED_DECISIONS = 6


def create_game_with_computers(site) -> None:
    page = site.page()
    page.goto(site.url + "/new/")
    page.fill("input[name=host_name]", HOST[0])
    page.fill("input[name=host_email]", HOST[1])
    page.select_option("select[name=expert_computers]", "1")
    page.select_option("select[name=strong_computers]", "1")
    page.select_option("select[name=simple_computers]", "1")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the game and send the invitations").click()
    assert "/new/sent/" in page.url, page.locator("body").inner_text()
    page.close()


def my_turn(player: Player, timeout: float = 60) -> str | None:
    """Reload until the page asks this person something; None once the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = player.open()
        if page.locator("#standings").count():
            return None
        kind = player.decision_kind()
        if kind:
            return kind
        time.sleep(0.3)
    raise AssertionError("the computer players did not answer within a minute")


def a_move(player: Player, kind: str) -> Move:
    decide = player.page.locator("#decide")
    if kind == "bid":
        return Move(0, "pass", "")
    if kind == "push":
        return Move(0, "push " + decide.locator("input[name=target]").first.get_attribute("value"), "")
    if kind == "remove":
        # In the order the page lists the displays (the game's seat order),
        # which is the order the confirmation names them in. Sorted by
        # colour, the expected "Done: ..." differed whenever the removal came
        # among the clicked decisions, which the computers' play decides.
        names = decide.locator("input[name^=slot_]").evaluate_all("inputs => inputs.map(i => i.name)")
        colours = list(dict.fromkeys(name.removeprefix("slot_") for name in names))
        return Move(0, "remove " + " ".join(f"{colour}:1" for colour in colours), "")
    return Move(0, kind, "")


def test_a_person_plays_against_three_computer_players_in_chromium(site):
    create_game_with_computers(site)
    mailbox = Mailbox(site)
    person = Player(site, mailbox.seat_link(HOST[1], "invites you to Galopp Royal"), HOST[0])
    invitation = person.open()
    listed = invitation.locator("ul.invitees").inner_text()
    for name in ("Expert computer 1", "Strong computer 1", "Simple computer 1"):
        assert f"{name} — has taken a seat" in listed, listed
    person.take_seat("red", "Europe/Paris")
    game = Game.objects.get()
    person.names = {seat.colour: seat.name for seat in game.seats.all()}

    for _ in range(CLICKED_DECISIONS):
        kind = my_turn(person)
        assert kind is not None, "the game ended before the person's first decisions"
        person.decide(a_move(person, kind), reload=False)
    site.screenshot(person.page, "against-computers")
    person.set_orders(bid_limit=2, devil="leader")

    assert my_turn(person, timeout=180) is None
    standings = person.page.locator("#standings").inner_text()
    for name in (HOST[0], "Expert computer 1", "Strong computer 1", "Simple computer 1"):
        assert name in standings, standings
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    actors = set(
        ActionRecord.objects.filter(game=game).exclude(seat=0).exclude(actor="chance").values_list("actor", flat=True)
    )
    assert actors == {ActionRecord.Actor.COMPUTER}
