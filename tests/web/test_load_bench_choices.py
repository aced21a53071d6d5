"""bench/load.py decides as a browser would: from the decision forms it
finds in a seat page, one that the site accepts."""

import random

import pytest

from bench.load import decision_choice, page_etag
from games.models import Game
from tests.factories import started_game, tokens
from tests.web.integrity_helpers import game_at_push, game_at_removal, game_at_roll, mover_position

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("make", [lambda: started_game(4), game_at_roll, game_at_push, game_at_removal])
def test_the_load_bench_posts_a_decision_the_movers_page_offers_and_the_site_takes_it(client, make):
    game = make()
    token = tokens(game)[mover_position(game)]
    page = client.get(f"/s/{token}/").content.decode()
    version = game.version
    for seed in range(3):
        action, fields = decision_choice(page, random.Random(seed))
        assert action == "act"  # next to the page: /s/<token>/act
        assert fields["csrfmiddlewaretoken"] and fields["action"]
    response = client.post(f"/s/{token}/{action}", fields)
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).version > version


def test_the_load_bench_finds_no_decision_on_the_page_of_a_seat_not_to_move(client):
    game = game_at_roll()
    waiting = next(position for position in tokens(game) if position != mover_position(game))
    page = client.get(f"/s/{tokens(game)[waiting]}/").content.decode()
    assert decision_choice(page, random.Random(0)) is None


@pytest.mark.parametrize("kind", ["seat", "spectator"])
def test_the_load_bench_listens_as_an_open_page_with_the_version_the_page_shows(client, kind):
    game = started_game(3)
    path = f"/s/{tokens(game)[0]}/" if kind == "seat" else f"/g/{game.public_id}/"
    etag = page_etag(client.get(path).content.decode())
    assert etag == f'"{game.version}"'
    assert client.get(f"{path}version", HTTP_IF_NONE_MATCH=etag).status_code == 304
