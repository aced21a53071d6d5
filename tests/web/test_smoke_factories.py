import random

import pytest

from games import engine
from games.models import ActionRecord, Game
from games.services.game_state import load_state
from tests.factories import play_until, started_game, tokens

pytestmark = pytest.mark.django_db


def test_a_started_game_waits_for_the_first_bid_with_the_lot_dealt():
    game = started_game(4)
    state = load_state(game)
    assert game.status == Game.Status.RUNNING
    assert engine.decision_kind(state) == "bid"
    # The start player and the four auction cards were drawn by chance.
    assert ActionRecord.objects.filter(game=game, seat=engine.CHANCE).count() == 5
    assert game.version == 5 == game.decision_version
    assert len(tokens(game)) == 4


def test_random_play_reaches_the_first_race():
    game = started_game(3)
    game = play_until(game, lambda s: s.phase == "race", random.Random(2))
    assert load_state(game).phase == "race"
