"""The seat page comes from the cache only while nothing it shows has
changed: every change, with a decision or without one, shows on the next
view, and the cache never holds a seat's link."""

from __future__ import annotations

import datetime as dt
import pickle
import random
import re
import zoneinfo

import pytest
import time_machine
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import escape

from games import engine, page_marks
from games.models import Seat
from games.selectors import page_cache
from games.services import moderation
from games.services.absence import absence_declare
from games.services.game_state import load_state
from games.services.names import name_problem
from games.services.seat_settings import emails_stop, language_set, orders_set
from games.services.seats import game_seats
from games.web.forms import NewGameForm
from tests.factories import play_steps, play_until, seat_at, started_game, tokens

pytestmark = pytest.mark.django_db


def without_csrf(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def page(client: Client, token: str, **params) -> str:
    """The page without its CSRF token (masked afresh for every response)."""
    response = client.get(f"/s/{token}/", params)
    assert response.status_code == 200
    return without_csrf(response.content.decode())


def cached_pages() -> list:
    # The tests' own LocMemCache, which keeps its values pickled.
    return [pickle.loads(value) for value in cache._cache.values()]


def moderator_user() -> User:
    user = User.objects.create_user("mod", email="mod@example.org", password="x" * 20, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=moderation.MODERATORS_GROUP)[0])
    return user


@pytest.fixture
def game():
    return started_game(4)


def test_a_second_view_is_one_query_and_the_same_page(game):
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
    csrf = client.cookies["csrftoken"].value
    stored = [text for text in cached_pages() if isinstance(text, str) and "<html" in text]
    assert stored, "the page was not cached"
    for text in stored:
        for token in links.values():
            assert token not in text
        assert csrf not in text
    assert links[0] in html  # the page itself has its forms' addresses


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
        changed = seat_at(game, 0)  # shown on the seat's own page only
    client = Client()
    before = page(client, viewer)
    version = game.version
    change(changed)
    game.refresh_from_db()
    after = page(client, viewer)
    assert after != before
    assert game.version == version or change is _on_autopilot


def test_an_absence_that_ends_while_nobody_writes_shows(game, monkeypatch):
    """An absence declared for tomorrow: the page changes when it is over,
    with no write in between (and a page kept longer than that)."""
    monkeypatch.setattr(page_cache, "SEAT_PAGE_SECONDS", 30 * 24 * 3600)
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
    assert len(queries) == 1
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="de"' in german
    play_steps(game, 2)
    moved = without_csrf(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert moved != english
    moderation.game_pause(moderator=moderator_user(), game=game, reason="a break")
    assert without_csrf(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()) != moved


def test_an_unknown_game_has_no_spectator_page():
    assert Client().get("/g/nosuchgame000/").status_code == 404


def test_the_seats_a_page_is_looked_up_with_are_the_seats_as_the_models_read_them(game):
    """A page made after a miss shows the seats from the rows it was looked
    up with rather than reading them again: the same values, of the same
    types, down to the columns no page shows."""
    seat = seat_at(game, 1)
    orders_set(seat=seat, auto_roll=True, bid_limit=9, bid_every=True, devil="", removal="")
    absence_declare(seat=seat, first_day=_seat_today(seat), days=2, mode="extend")
    Seat.objects.filter(pk=seat.pk).update(link_opened_at=timezone.now(), display_name="Zoë <b>")
    game.refresh_from_db()
    table = page_cache.table_read(tokens(game)[0])
    for looked_up, read in zip(table.seats_of(game), game_seats(game), strict=True):
        assert looked_up.game is game
        for field in Seat._meta.concrete_fields:
            assert getattr(looked_up, field.attname) == getattr(read, field.attname), field.name
            assert type(getattr(looked_up, field.attname)) is type(getattr(read, field.attname)), field.name


def test_a_first_view_reads_the_moderators_steps_only_once_a_moderator_stepped_in(game):
    """Until then the rows the page was looked up with say there are none."""

    def moderation_reads(url: str) -> int:
        cache.clear()
        page_cache.near_forget()
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
    cache.clear()
    page_cache.near_forget()
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
    assert sum("public-sections" in key for key in cache._cache) == 1
    own_cards = ["Your secret cards in this lot:" in html for html in shared]
    assert own_cards == ([True, True, True, True, False] if moment == "auction" else [False] * 5)


def test_a_kept_piece_is_held_in_memory_up_to_a_limit(monkeypatch):
    monkeypatch.setattr(page_cache, "KEPT_NEAR", 3)
    made = []

    def make(n):
        made.append(n)
        return f"piece {n}"

    assert page_cache.kept("test", (1,), lambda: make(1)) == "piece 1"
    cache.clear()
    assert page_cache.kept("test", (1,), lambda: make(1)) == "piece 1"
    assert made == [1]
    for n in (2, 3, 4):
        page_cache.kept("test", (n,), lambda n=n: make(n))
    cache.clear()
    page_cache.kept("test", (1,), lambda: make(1))
    assert made == [1, 2, 3, 4, 1]


def test_a_name_written_like_the_place_of_the_own_cards_stays_a_name(game):
    """The shared sections hold the place of the viewer's own cards with a
    mark no player's name can make."""
    Seat.objects.filter(game=game, position=1).update(display_name=page_marks.OWN_CARDS)
    html = page(Client(), tokens(game)[0])
    assert html.count("Your secret cards in this lot:") == 1
    assert escape(page_marks.OWN_CARDS) in html


@pytest.mark.parametrize("mark", page_marks.EVERY_MARK)
def test_a_name_holding_what_a_kept_page_fills_in_is_refused(mark):
    """Every other viewer's page would show its own link, or CSRF token,
    where that name stands."""
    assert name_problem(f"Ann {mark}") == "The site uses that text itself; choose another name."
    form = NewGameForm(data={"host_name": mark, "host_email": "ann@example.com"})
    assert not form.is_valid() and "host_name" in form.errors
    assert name_problem("Ann Placeholder") is None
