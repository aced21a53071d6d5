"""What an open game page asks every few seconds (games/web/follow.py): the
version the page was made from, with an ETag; 304 while it has not changed;
the same 404 for every link that opens nothing; and the page carries the
version its script compares with."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.services import moderation
from games.services.seat_settings import language_set
from tests.factories import play_steps, seat_at, started_game, tokens
from tests.web.integrity_helpers import snapshot

pytestmark = pytest.mark.django_db


def seat_url(game: Game, position: int = 0) -> str:
    return f"/s/{tokens(game)[position]}/version"


def spectator_url(game: Game) -> str:
    return f"/g/{game.public_id}/version"


def page_version(html: str) -> int:
    found = re.findall(r'<script src="[^"]*follow\.js" data-url="version" data-version="(\d+)"', html)
    assert len(found) == 1, "the page does not carry its version once"
    return int(found[0])


@pytest.mark.parametrize("url_of", [seat_url, spectator_url], ids=["seat", "spectator"])
def test_the_version_is_answered_with_its_etag_and_a_matching_etag_gets_304(client, url_of):
    game = started_game(3)
    response = client.get(url_of(game))
    assert response.status_code == 200
    assert response.content.decode() == str(game.version)
    assert response["ETag"] == f'"{game.version}"'

    unchanged = client.get(url_of(game), HTTP_IF_NONE_MATCH=f'"{game.version}"')
    assert unchanged.status_code == 304
    assert unchanged.content == b""

    game = play_steps(game, 1)
    moved = client.get(url_of(game), HTTP_IF_NONE_MATCH=f'"{game.version - 1}"')
    assert moved.status_code == 200
    assert moved.content.decode() == str(game.version)
    assert moved["ETag"] == f'"{game.version}"'


@pytest.mark.parametrize("url_of", [seat_url, spectator_url], ids=["seat", "spectator"])
def test_an_unchanged_version_costs_one_statement(client, url_of):
    game = started_game(3)
    url = url_of(game)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, HTTP_IF_NONE_MATCH=f'"{game.version}"').status_code == 304
    assert len(queries) == 1


def test_the_seat_version_is_kept_by_no_shared_cache_and_the_spectators_is_asked_again(client):
    game = started_game(3)
    for response in (client.get(seat_url(game)), client.get(seat_url(game), HTTP_IF_NONE_MATCH=f'"{game.version}"')):
        assert set(response["Cache-Control"].replace(" ", "").split(",")) == {"private", "no-cache"}
    assert "no-cache" in client.get(spectator_url(game))["Cache-Control"]


@pytest.mark.parametrize("url_of", [seat_url, spectator_url], ids=["seat", "spectator"])
def test_head_answers_like_get_without_a_body_and_get_and_head_change_nothing(url_of):
    game = started_game(3)
    before = snapshot()
    get, head = Client().get(url_of(game)), Client().head(url_of(game))
    assert get.status_code == head.status_code == 200
    assert head.content == b""
    assert head["ETag"] == get["ETag"]
    assert Client().head(url_of(game), HTTP_IF_NONE_MATCH=get["ETag"]).status_code == 304
    assert snapshot() == before


@pytest.mark.parametrize("url_of", [seat_url, spectator_url], ids=["seat", "spectator"])
def test_the_version_cannot_be_posted(client, url_of):
    game = started_game(3)
    assert client.post(url_of(game)).status_code == 405


def moderator_user() -> User:
    user = User.objects.create_user("mod", email="mod@example.org", password="x" * 20, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=moderation.MODERATORS_GROUP)[0])
    return user


def test_every_link_that_opens_nothing_gets_the_same_404(client):
    game = started_game(3)
    token = tokens(game)[1]
    handed_over = f"/s/{token}/version"
    moderation.seat_replace(
        moderator=moderator_user(), seat=seat_at(game, 1), new_email="new@example.com", reason="gone"
    )
    answers = [
        client.get(url, HTTP_IF_NONE_MATCH=f'"{game.version}"')
        for url in (
            handed_over,
            f"/s/{token[:-2]}xx/version",  # forged
            f"/s/{'a' * 300}/version",  # too long to be one
            "/g/nosuchgame/version",
            f"/g/{'a' * 300}/version",
        )
    ]
    assert [answer.status_code for answer in answers] == [404] * 5
    assert len({answer.content for answer in answers}) == 1
    assert not any(answer.has_header("ETag") for answer in answers)


def test_the_seat_and_spectator_pages_carry_the_version_they_were_made_from(client):
    game = started_game(3)
    token = tokens(game)[0]
    for _ in range(2):  # made afresh, then from the cache
        assert page_version(client.get(f"/s/{token}/").content.decode()) == game.version
        assert page_version(client.get(f"/g/{game.public_id}/").content.decode()) == game.version
    game = play_steps(game, 1)
    assert page_version(client.get(f"/s/{token}/").content.decode()) == game.version
    assert page_version(client.get(f"/g/{game.public_id}/").content.decode()) == game.version


def test_the_stale_notice_is_in_the_pages_language_and_hidden_until_the_script_shows_it(client):
    game = started_game(3)
    language_set(seat=seat_at(game, 0), language="de")
    html = client.get(f"/s/{tokens(game)[0]}/").content.decode()
    notice = re.search(r'<p class="box stale-notice" id="stale-notice" role="alert" hidden>(.*?)</p>', html)
    assert notice is not None
    assert "Das Spiel ist weitergegangen" in notice.group(1)
