"""The seat page comes from the cache only while nothing it shows has
changed: every change, with a decision or without one, shows on the next
view, and the cache never holds a seat's link."""

from __future__ import annotations

import datetime as dt
import random
import re
import zoneinfo

import pytest
import time_machine
from django.contrib.auth.models import Group, User
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.models import Seat
from games.services import moderation
from games.services.absence import absence_declare
from games.services.game_state import load_state
from games.services.seat_settings import emails_stop, language_set, orders_set
from games.web import seat_page
from tests.factories import play_steps, play_until, seat_at, started_game, tokens

pytestmark = pytest.mark.django_db


def without_csrf(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def page(client: Client, token: str, **params) -> str:
    """The page without its CSRF token (masked afresh for every response)."""
    response = client.get(f"/s/{token}/", params)
    assert response.status_code == 200
    return without_csrf(response.content.decode())


def settings_page(client: Client, token: str) -> str:
    """The seat's settings page (standing orders, emails...), without its CSRF token."""
    response = client.get(f"/s/{token}/settings")
    assert response.status_code == 200
    return without_csrf(response.content.decode())


def cached_html() -> list[str]:
    """Every piece of HTML the pages' cache was given (tests/recording_cache.py)."""
    written = caches["pages"].written.values()
    return [value["body"] if isinstance(value, dict) else value for value in written]


def forget_pages() -> None:
    caches["pages"].clear()


def moderator_user() -> User:
    user = User.objects.create_user("mod", email="mod@example.org", password="x" * 20, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=moderation.MODERATORS_GROUP)[0])
    return user


@pytest.fixture
def game():
    return started_game(4)


def test_a_second_view_is_one_query_and_the_same_page(game):
    """Every row the page shows, found by the link."""
    token = tokens(game)[0]
    client = Client()
    first = page(client, token)
    with CaptureQueriesContext(connection) as queries:
        second = page(client, token)
    assert len(queries) == 1
    assert first == second


def test_a_decision_shows_on_the_next_view(game):
    links = tokens(game)
    mover = engine.to_move(load_state(game))
    client = Client()
    before = page(client, links[mover])
    asked = f'name="version" value="{game.decision_version}"'
    assert asked in before
    play_steps(game, 1)
    after = page(client, links[mover])
    assert asked not in after


def test_the_cache_never_holds_a_link_or_a_csrf_token(game):
    links = tokens(game)
    client = Client()
    html = client.get(f"/s/{links[0]}/").content.decode()
    client.get(f"/g/{game.public_id}/")
    csrf = client.cookies["csrftoken"].value
    stored = cached_html()
    assert any("<h1>" in text for text in stored), "the page was not cached"
    for text in stored:
        for token in links.values():
            assert token not in text
        assert csrf not in text and "csrfmiddlewaretoken" not in text
    # The page's forms post next to it, each with this browser's token; so
    # do those of the settings page, one link away.
    mover = client.get(f"/s/{links[engine.to_move(load_state(game))]}/").content.decode()
    assert 'action="act" id="form-bid"' in mover
    assert 'form="form-bid" name="csrfmiddlewaretoken"' in mover
    assert 'href="settings"' in html
    settings = client.get(f"/s/{links[0]}/settings").content.decode()
    assert 'action="orders" id="form-orders"' in settings
    assert 'form="form-orders" name="csrfmiddlewaretoken"' in settings
    for text in cached_html():
        for token in links.values():
            assert token not in text
        assert "csrfmiddlewaretoken" not in text


def test_forms_of_a_cached_page_post_with_the_csrf_check_on(game):
    links = tokens(game)
    mover = engine.to_move(load_state(game))
    first = Client(enforce_csrf_checks=True)
    page(first, links[mover])
    other = Client(enforce_csrf_checks=True)
    html = other.get(f"/s/{links[mover]}/").content.decode()  # from the cache, with this browser's token
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    response = other.post(
        f"/s/{links[mover]}/act", {"csrfmiddlewaretoken": csrf, "version": version, "action": "pass"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.decision_version > int(version)


def test_a_message_is_shown_once_and_then_the_cached_page(game):
    links = tokens(game)
    mover = engine.to_move(load_state(game))
    client = Client()
    html = page(client, links[mover])
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    client.post(f"/s/{links[mover]}/act", {"version": version, "action": "pass"})
    assert "you passed" in page(client, links[mover])
    assert "you passed" not in page(client, links[mover])


def _orders(seat):
    orders_set(seat=seat, auto_roll=True, bid_limit=None, devil="", removal="")


def _emails_stop(seat):
    emails_stop(seat=seat)


def _german(seat):
    language_set(seat=seat, language="de")


def _seat_today(seat):
    """The absence form's calendar is the player's own, not the server's."""
    return timezone.localtime(timezone.now(), zoneinfo.ZoneInfo(seat.time_zone)).date()


def _absent(seat):
    absence_declare(seat=seat, first_day=_seat_today(seat), days=2, mode="extend")


def _paused(seat):
    moderation.game_pause(moderator=moderator_user(), game=seat.game, reason="a player asked")


def _deadline_extended(seat):
    moderation.deadline_extend(moderator=moderator_user(), game=seat.game, hours=48, reason="holiday")


def _handed_over(seat):
    moderation.seat_replace(moderator=moderator_user(), seat=seat, new_email="newcomer@example.com", reason="left")


def _on_autopilot(seat):
    moderation.autopilot_set(moderator=moderator_user(), seat=seat, on=True, reason="away")


@pytest.mark.parametrize(
    "change",
    [_orders, _emails_stop, _german, _absent, _paused, _deadline_extended, _handed_over, _on_autopilot],
    ids=lambda change: change.__name__.strip("_"),
)
def test_a_change_without_a_decision_shows_on_the_next_view(game, change):
    """Another seat's change, or the viewer's own, or a moderator's: each
    changes the page, none bumps the version."""
    links = tokens(game)
    viewer, changed = links[0], seat_at(game, 1)
    if change in (_orders, _emails_stop, _german):
        changed = seat_at(game, 0)  # shown on the seat's own pages only
    # Standing orders and emails are set, and shown, on the settings page.
    look = settings_page if change in (_orders, _emails_stop) else page
    client = Client()
    before = look(client, viewer)
    version = game.version
    change(changed)
    game.refresh_from_db()
    after = look(client, viewer)
    assert after != before
    assert game.version == version or change is _on_autopilot


def test_an_absence_that_ends_while_nobody_writes_shows(game, monkeypatch):
    """An absence declared for tomorrow: the page changes when it is over,
    with no write in between (and a page kept longer than that)."""
    monkeypatch.setattr(seat_page, "PAGE_SECONDS", 30 * 24 * 3600)
    seat = seat_at(game, 1)
    tomorrow = _seat_today(seat) + dt.timedelta(days=1)
    absence = absence_declare(seat=seat, first_day=tomorrow, days=1, mode="extend")
    client = Client()
    token = tokens(game)[0]
    before = page(client, token)
    with time_machine.travel(absence.ends_at + dt.timedelta(minutes=1)):
        after = page(client, token)
    assert after != before


def test_a_handed_over_link_is_refused_even_after_its_page_was_cached(game):
    seat = seat_at(game, 1)
    old_link = tokens(game)[1]
    page(Client(), old_link)
    moderation.seat_replace(moderator=moderator_user(), seat=seat, new_email="newcomer@example.com", reason="left")
    assert Client().get(f"/s/{old_link}/").status_code == 410


def test_a_forged_link_opens_nothing(game):
    page(Client(), tokens(game)[0])
    assert Client().get("/s/" + "A" * 32 + "/").status_code == 404


def test_the_page_says_the_seats_language_from_the_cache_too(game):
    seat = seat_at(game, 0)
    language_set(seat=seat, language="de")
    client = Client()
    token = tokens(game)[0]
    page(client, token)
    response = client.get(f"/s/{token}/")
    assert response["Content-Language"] == "de"
    assert response["Cache-Control"] == "no-store"
    assert 'lang="de"' in response.content.decode()


def test_a_since_link_gets_its_own_page(game):
    links = tokens(game)
    client = Client()
    play_steps(game, 3)
    game.refresh_from_db()
    plain = page(client, links[0])
    since = page(client, links[0], since="1")
    assert "Since this email was sent" in since
    assert "Since this email was sent" not in plain
    # A "since" that is no earlier version is the plain page.
    assert page(client, links[0], since="999999") == plain


def test_seats_of_other_games_never_share_a_page():
    one, two = started_game(3), started_game(3)
    client = Client()
    first = page(client, tokens(one)[0])
    second = page(client, tokens(two)[0])
    assert one.public_id in first and two.public_id in second
    assert one.public_id not in second
    assert Seat.objects.count() == 6


def test_the_spectator_page_is_cached_per_language_and_follows_the_game(game):
    client = Client()
    url = f"/g/{game.public_id}/"
    english = without_csrf(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    with CaptureQueriesContext(connection) as queries:
        again = without_csrf(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert again == english
    assert len(queries) == 2  # the game, then every row the page shows
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="de"' in german
    play_steps(game, 2)
    moved = without_csrf(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert moved != english
    moderation.game_pause(moderator=moderator_user(), game=game, reason="a break")
    assert without_csrf(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()) != moved


def test_an_unknown_game_has_no_spectator_page():
    assert Client().get("/g/nosuchgame000/").status_code == 404


def test_a_first_view_reads_the_moderators_steps_only_once_a_moderator_stepped_in(game):
    """Until then the rows the page was looked up with say there are none."""

    def moderation_reads(url: str) -> int:
        forget_pages()
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(url).status_code == 200
        return sum(query["sql"].startswith('SELECT "games_moderationentry"') for query in queries)

    urls = [f"/s/{tokens(game)[0]}/", f"/g/{game.public_id}/"]
    assert [moderation_reads(url) for url in urls] == [0, 0]
    moderation.deadline_extend(moderator=moderator_user(), game=game, hours=48, reason="a holiday in the hills")
    assert [moderation_reads(url) for url in urls] == [1, 1]
    assert all("a holiday in the hills" in Client().get(url).content.decode() for url in urls)


def _made_alone(client_page) -> str:
    """A page made with nothing kept anywhere, as by the first viewer ever."""
    forget_pages()
    return client_page()


@pytest.mark.parametrize("moment", ["auction", "race"])
def test_a_page_made_with_the_sections_another_viewer_left_is_the_page_made_alone(game, moment):
    """The board, the lot, the table, the races and the history are made once
    for every viewer of a version, from the spectator's view: each seat still
    sees its own secret cards in the lot, and nobody else's."""
    if moment == "race":
        play_until(game, lambda state: state.race is not None and state.race.rolls >= 2, random.Random(3))
        game.refresh_from_db()
    viewers = [lambda token=token: page(Client(), token) for token in tokens(game).values()]
    viewers.append(lambda: without_csrf(Client().get(f"/g/{game.public_id}/").content.decode()))
    alone = [_made_alone(viewer) for viewer in viewers]
    _made_alone(lambda: None)
    shared = [viewer() for viewer in viewers]
    assert shared == alone
    assert sum("game-board" in key for key in caches["pages"].written) == 1
    own_cards = ["Your secret cards in this lot:" in html for html in shared]
    assert own_cards == ([True, True, True, True, False] if moment == "auction" else [False] * 5)


def _races_run_made() -> list[str]:
    return [key for key in caches["pages"].written if "races-run" in key]


def test_the_races_run_are_made_once_from_one_races_end_to_the_next(game):
    """A race's result never changes once run: the next decisions of the
    race that follows show the same table of races run, made once for them
    all; a reader of another language gets it in theirs."""
    play_until(game, lambda state: state.race is not None and state.race.number == 2, random.Random(5))
    client, token = Client(), tokens(game)[0]
    first = page(client, token)
    assert "Race 1" in first
    made = _races_run_made()
    assert len(made) == 1
    play_steps(game, 2, random.Random(5))
    game.refresh_from_db()
    assert load_state(game).race.number == 2
    page(client, token)
    assert _races_run_made() == made
    _german(seat_at(game, 0))
    after = page(Client(), token)
    assert len(_races_run_made()) == 2
    assert "Rennen 1" in after


def test_a_first_view_reads_the_seats_and_their_game_by_the_ids_the_rows_gave(game):
    """The link is checked once, with the rows; the seats and their game are
    then read by the ids the rows gave, one statement each, whatever the
    game's length."""
    token = tokens(game)[0]
    with CaptureQueriesContext(connection) as queries:
        page(Client(), token)
    statements = [query["sql"] for query in queries]
    seat_reads = [sql for sql in statements if 'FROM "games_seat"' in sql]
    assert len(seat_reads) == 2  # the rows' statement, then the seats
    assert "token_hash" in seat_reads[0] and "token_hash" not in seat_reads[1].split("WHERE")[1]
    assert len([sql for sql in statements if sql.startswith('SELECT * FROM "games_game"')]) == 1
