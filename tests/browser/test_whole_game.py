"""One whole 4-player game in Chromium, as four people play it: the new-game
form, the invitations in the dev mailbox, every seat taken through its link,
the start auctions, arranged teams, race 1 with the Devil's push, the removal
and both substitute auctions by clicking; then standing orders play the rest,
and every seat sees the final standings, which the verify page confirms."""

from __future__ import annotations

import time

import pytest

from games.models import Game
from tests.browser.conftest import SCREENSHOTS
from tests.browser.people import Mailbox, Player, sign_in_moderator
from tests.browser.plan import plan_for

pytestmark = pytest.mark.django_db(transaction=True)

PEOPLE = [
    # name, email, colour, time zone
    ("Anna", "anna@example.com", "red", "Europe/Berlin"),
    ("Bruno", "bruno@example.com", "blue", "America/New_York"),
    ("Chiara", "chiara@example.com", "green", "Asia/Tokyo"),
    ("Dmitri", "dmitri@example.com", "yellow", "UTC"),
]
COLOURS = [colour for _, _, colour, _ in PEOPLE]


def create_game(site) -> None:
    page = site.page()
    response = page.goto(site.url + "/")
    assert response.status == 200
    with page.expect_navigation():
        page.get_by_role("link", name="Start a new game").click()
    page.fill("input[name=host_name]", PEOPLE[0][0])
    page.fill("input[name=host_email]", PEOPLE[0][1])
    page.fill("textarea[name=other_emails]", "\n".join(email for _, email, _, _ in PEOPLE[1:]))
    with page.expect_navigation():
        page.get_by_role("button", name="Create the game and send the invitations").click()
    assert "/new/sent/" in page.url, page.locator("body").inner_text()
    page.close()


def check_turn_email(site, mailbox, game, time_zone: str) -> None:
    """The subject names the game and the decision; the first line says what
    is asked and by when, in the player's own time zone."""
    subject = mailbox.page.locator("h1").inner_text()
    assert f"#{game.public_id}" in subject and "your bid" in subject, subject
    text = mailbox.page.locator("pre").inner_text()
    first_line = text.strip().splitlines()[0]
    assert time_zone in first_line, f"the first line does not give the deadline in {time_zone}: {first_line!r}"
    page = mailbox.show_html()
    picture = page.locator("img[src^='data:']").first
    assert picture.evaluate("img => img.naturalWidth") > 0, "the board picture in the email does not load"
    site.screenshot(page, "email-your-bid")


def check_invitation_names_everyone(site, player) -> None:
    """Two have taken their seats: the third's invitation names them, the
    host marked, and the one still missing by a masked address."""
    page = player.open()
    # Each seated player's colour is named in words (beside its chip) before the name.
    listed = [" ".join(line.split()) for line in page.locator("ul.invitees li").all_inner_texts()]
    assert listed[0] == "Red Anna (host) — has taken a seat", listed
    assert listed[1] == "Blue Bruno — has taken a seat", listed
    assert listed[2] == "c•••@example.com (you) — has not yet taken a seat", listed
    assert listed[3] == "d•••@example.com — has not yet taken a seat", listed
    assert "dmitri@example.com" not in page.locator("body").inner_text()
    site.screenshot(page, "invitation")


def check_standings_first(page, names: list[str]) -> None:
    """When the game is over the final standings are the first thing shown,
    each player by name with their gold."""
    first = page.locator("main section").first
    assert first.get_attribute("id") == "standings", f"the first section is {first.inner_text()[:200]!r}"
    # Each line: the chip, its colour named in words, then the player.
    rows = first.locator("li").evaluate_all(
        "lis => lis.map(li => [li.querySelector('.chip').textContent, li.innerText.trim()])"
    )
    assert all(colour and line.startswith(colour) for colour, line in rows), rows
    listed = [line.removeprefix(colour) for colour, line in rows]
    assert sorted(line.split(" — ")[0].strip() for line in listed) == sorted(names), listed
    assert all(" gold" in line for line in listed), listed


def check_results_name_players(page, names: list[str]) -> None:
    results = page.locator("section", has=page.get_by_role("heading", name="Races run")).inner_text()
    for name in names:
        assert name in results, f"{name} is missing from the race results"
    for colour in ("Red", "Blue", "Green", "Yellow"):
        assert colour not in results, f"the race results name a colour ({colour}) instead of a player"


def test_four_people_play_a_whole_game_in_chromium(site, settings):
    # Each person here opens their page anew for every move, so an open page
    # reloading itself when another seat decides (games/static/games/follow.js,
    # proven in test_page_follows_game.py) only races the test's own navigation:
    # under a loaded CI run one such race left a page waiting 30 s for "load".
    settings.PAGE_FOLLOW_SECONDS = 3600
    started = time.monotonic()
    create_game(site)
    mailbox = Mailbox(site)
    players = [
        Player(site, mailbox.seat_link(email, "invites you to Galopp Royal"), name)
        for name, email, _, _ in PEOPLE
    ]
    for index, (player, (_, _, colour, zone)) in enumerate(zip(players, PEOPLE, strict=True)):
        if index == 2:
            check_invitation_names_everyone(site, player)
        player.take_seat(colour, zone)
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING
    for player in players:
        player.names = {colour: name for name, _, colour, _ in PEOPLE}

    moves = plan_for(game, COLOURS)
    # The first decision is made from its email, as the player would.
    first = moves[0] if moves[0].stage != "arrange" else next(m for m in moves if m.stage != "arrange")
    email = PEOPLE[first.seat][1]
    assert mailbox.seat_link(email, "your bid").split("?")[0] == players[first.seat].link
    check_turn_email(site, mailbox, game, PEOPLE[first.seat][3])

    shot = set()
    for move in moves:
        player = players[move.seat]
        if move.stage == "arrange":
            player.arrange(move.text.split()[1:])
            continue
        page = player.open()
        for stage, word, name in (
            ("start auction", "bid", "seat-in-an-auction"),
            ("race 1", "push", "seat-in-a-race-devil"),
            ("removal", "remove", "removal-form"),
        ):
            if move.stage == stage and move.text.startswith(word) and name not in shot:
                shot.add(name)
                site.screenshot(page, name)
        player.decide(move, reload=False)

    # Standing orders answer everything from race 2 on: the game runs out.
    for index, player in enumerate(players):
        player.set_orders(bid_limit=3 + index, devil=("leader", "ahead", "none", "leader")[index])
    game.refresh_from_db()
    assert game.status == Game.Status.OVER

    names = [name for name, _, _, _ in PEOPLE]
    for player in players:
        page = player.open()
        player.expect_text("The game is over.")
        check_standings_first(page, names)
        check_results_name_players(page, names)
    site.screenshot(players[0].page, "final-standings")
    spectator = site.page()
    spectator.goto(f"{site.url}/g/{game.public_id}/")
    check_standings_first(spectator, names)
    check_results_name_players(spectator, names)
    moderator = sign_in_moderator(site)
    moderator.goto(f"{site.url}/mod/g/{game.public_id}/")
    check_standings_first(moderator, names)

    # Through the real worker, every player hears that it is over.
    for _, email, _, _ in PEOPLE:
        mailbox.open_message(email, "the game is over")

    page = players[0].page
    with page.expect_navigation():
        page.get_by_role("link", name="check every roll and draw").click()
    body = page.locator("body").inner_text()
    assert "The seed's SHA-256 matches the commitment." in body
    assert "All match the log." in body
    assert "Replaying the log gives the stored final state." in body

    site.checks.assert_clean()
    summary = (
        f"whole game: {len(moves)} planned decisions, {site.checks.document_loads} page loads "
        f"and {site.checks.responses} responses checked in {time.monotonic() - started:.0f} s\n"
    )
    (SCREENSHOTS / "summary.txt").open("a").write(summary)
    print(summary)
