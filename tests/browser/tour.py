"""Every page of a whole game, in each state a player meets it: a tour that
the phone and accessibility tests walk, in English and in German.

``game_tour`` makes one game through the services and stops it at each
moment worth looking at: invited, each decision kind (bid, roll, push,
remove) with a seat waiting meanwhile, and over. At each stop it hands the
test the pages to open then, so that a test sees each page as a player sees
it in that state. A new page is one more ``Stop`` in the list of its state
(``PAGES`` for pages that need no game)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass

from games import engine
from games.models import Game, Seat
from games.services.api_tokens import api_token_create
from games.services.game_state import load_state
from games.services.home import home_link_issue
from games.services.links import home_token
from games.services.moderation import moderator_make
from games.services.seat_settings import language_set
from games.services.setup import game_create, seat_accept
from games.services.webhooks import webhook_add
from tests.browser.people import Mailbox
from tests.factories import COLOURS, play_until, seat_at, tokens

MODERATOR = ("mia", "a long secret 42")
# The one-button pages a turn email's decision links open, one per kind that has them.
CONFIRMED = {"bid": "action=pass", "roll": "action=roll", "push": "action=push&target=none"}
PLAYERS = 4
# The invited player's address: their home page lists the game.
INVITED = "p1@example.com"


@dataclass(frozen=True)
class Stop:
    """One page: ``name`` says which page in which state (screenshots and
    failures use it); ``path`` is relative to the site; a moderator's page
    needs the signed-in moderator. ``email`` marks an email's HTML part as
    the dev mailbox shows it: a fragment a mail program frames, not a page
    of the site (it has no title or language of its own)."""

    name: str
    path: str
    moderator: bool = False
    email: bool = False
    # What the page must show in this state (a CSS selector), or must not
    # (``shows`` prefixed with "!"), so that the tour cannot drift unseen.
    shows: str = ""


# Pages that are the same whatever the game does.
PAGES = [
    Stop("home", "/"),
    Stop("new-game", "/new/"),
    Stop("rules", "/rules/"),
    Stop("send-my-links", "/link/"),
    Stop("links-sent", "/link/sent/"),
    Stop("game-created", "/new/sent/"),
    Stop("open-games", "/open/", shows="#play-now"),
    Stop("join-link-sent", "/open/sent/"),
    Stop("api-docs", "/api/"),
    Stop("moderator-login", "/mod/login/"),
]


# The field of each decision kind's form on the seat page.
DECISION_FIELDS = {
    "bid": "#decide input[name=amount]",
    "roll": "#decide button[value=roll]",
    "push": "#decide input[name=target]",
    "remove": "#decide input[name^=slot_]",
}


@dataclass
class Tour:
    game: Game
    # Called before the pages are opened in a language: the seats' pages
    # follow their seat's language, not the browser's.
    languages: Callable[[str], None]


def _decision(kind: str) -> Callable[[engine.State], bool]:
    return lambda state: engine.decision_kind(state) == kind


def game_tour(site) -> Iterator[tuple[Tour, list[Stop]]]:
    """Yields (tour, the pages to open now) at each stop of one game."""
    game = game_create(
        host_name="Host",
        host_email="p0@example.com",
        other_emails=[f"p{i}@example.com" for i in range(1, PLAYERS)],
        decision_hours=24,
        ruleset_name="classic",
    )
    tour = Tour(game=game, languages=lambda language: _set_languages(game, language))
    links = tokens(game)
    home = home_link_issue(email=INVITED)
    moderator_make(username=MODERATOR[0], email="mia@example.com", password=MODERATOR[1])
    mailbox = Mailbox(site)
    mailbox.open_message(INVITED, f"#{game.public_id}")
    message = mailbox.page.url.removeprefix(site.url)
    mailbox.page.close()
    yield tour, [
        *PAGES,
        Stop("invitation", f"/s/{links[1]}/"),
        Stop("player-home", f"/h/{home_token(home)}/"),
        Stop("dev-mailbox", "/dev/mailbox/"),
        Stop("dev-mailbox-message", message),
        Stop("dev-mailbox-html", f"{message}/html", email=True),
        Stop("moderator-dashboard", "/mod/", moderator=True),
    ]

    for seat in Seat.objects.filter(game=game).order_by("position"):
        seat_accept(
            seat=seat, colour=COLOURS[seat.position], display_name=f"Player {seat.position}", time_zone="Europe/Berlin"
        )
    api_token_create(seat=seat_at(game, 1), label="My bot")
    hook = webhook_add(seat=seat_at(game, 1), kind="json", url="http://127.0.0.1:9/hook")
    for kind in ("bid", "roll", "push", "remove"):
        game = play_until(game, _decision(kind))
        assert game.status == Game.Status.RUNNING, f"the game ended before a {kind} decision"
        mover = engine.to_move(load_state(game))
        waiting = (mover + 1) % PLAYERS
        stops = [
            Stop(f"seat-{kind}", f"/s/{links[mover]}/", shows=DECISION_FIELDS[kind]),
            Stop(f"seat-waiting-{kind}", f"/s/{links[waiting]}/", shows="!#decide"),
        ]
        if kind in CONFIRMED:
            stops.append(
                Stop(
                    f"confirm-{kind}",
                    f"/s/{links[mover]}/confirm?version={game.decision_version}&{CONFIRMED[kind]}",
                )
            )
        if kind == "bid":
            stops += [
                Stop("api-tokens", f"/s/{links[1]}/api/"),
                Stop("webhook", f"/s/{links[1]}/webhooks/{hook.pk}/"),
                Stop("player-home-running", f"/h/{home_token(home)}/"),
                Stop("settings", f"/s/{links[1]}/settings"),
                Stop("history", f"/s/{links[1]}/history"),
            ]
        stops += [
            Stop(f"spectator-{kind}", f"/g/{game.public_id}/"),
            Stop(f"moderator-game-{kind}", f"/mod/g/{game.public_id}/", moderator=True),
        ]
        yield tour, stops

    game = play_until(game, lambda state: False)
    assert game.status == Game.Status.OVER
    yield tour, [
        Stop("seat-game-over", f"/s/{links[0]}/", shows="#standings"),
        Stop("spectator-game-over", f"/g/{game.public_id}/", shows="#standings"),
        Stop("moderator-game-over", f"/mod/g/{game.public_id}/", moderator=True),
        Stop("moderator-dashboard-over", "/mod/", moderator=True),
    ]


def _set_languages(game: Game, language: str) -> None:
    for seat in Seat.objects.filter(game=game):
        language_set(seat=seat, language=language)


def sign_in(page, url: str) -> None:
    """The moderator signs in on the login page (in any language)."""
    page.goto(f"{url}/mod/login/")
    page.fill("input[name=username]", MODERATOR[0])
    page.fill("input[name=password]", MODERATOR[1])
    with page.expect_navigation():
        page.locator("input[name=password]").press("Enter")
    assert "/mod/login/" not in page.url, "the moderator could not sign in"


LANGUAGES = {"en": "en-GB", "de": "de-DE"}
# A check: the problems it finds on the open page (``stop`` in ``language``).
Check = Callable[[object, Stop, str], list[str]]


def walk(site, chromium, check: Check, viewport: dict) -> list[str]:
    """Opens every page of ``game_tour`` in English and in German at
    ``viewport`` and runs ``check`` on each: every problem found, each
    prefixed by its page and language. The browser contexts bypass the
    Content-Security-Policy only so that axe-core can be injected."""
    problems: list[str] = []
    with ExitStack() as stack:
        pages = {}
        for language, locale in LANGUAGES.items():
            context = chromium.new_context(locale=locale, timezone_id="Europe/Berlin", bypass_csp=True)
            stack.callback(context.close)
            context.set_default_timeout(30_000)
            page = context.new_page()
            site.checks.watch(page)
            page.set_viewport_size(viewport)
            pages[language] = page
        signed_in = False
        for tour, stops in game_tour(site):
            if not signed_in:
                for page in pages.values():
                    sign_in(page, site.url)
                signed_in = True
            for language, page in pages.items():
                tour.languages(language)
                for stop in stops:
                    response = page.goto(site.url + stop.path)
                    assert response.status == 200, f"{stop.name} ({language}) answered {response.status}"
                    if stop.shows:
                        shown = page.locator(stop.shows.removeprefix("!")).count() > 0
                        assert shown != stop.shows.startswith("!"), f"{stop.name} ({language}): {stop.shows}"
                    problems += [f"{stop.name} ({language}): {problem}" for problem in check(page, stop, language)]
    return problems
