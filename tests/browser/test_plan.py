"""The plan a browser game clicks through (tests/browser/plan.py) agrees with
the server move for move, a team of four alike bearers included: the server
records nothing for such a team's arrangement, so neither may the plan."""

from __future__ import annotations

import pytest

from games import engine
from games.models import Game, Seat
from games.services.decisions import notation_submit
from games.services.game_state import load_state
from tests.browser.plan import opening
from tests.factories import invited_game, seats_taken

pytestmark = pytest.mark.django_db

COLOURS = ["red", "yellow", "green", "blue"]
PUBLIC_ID = "planagrees"


def first_seed_with_a_team_of_four_alike() -> str:
    """A seed whose opening deals some start team four alike bearers: the
    plan arranges fewer teams than there are players, or (as it did before
    it knew better) one team in the order it already has."""
    ruleset = engine.RULESETS["classic"].to_json()
    for number in range(1000):
        seed = f"{number:064x}"
        moves = opening(Game(seed=seed, public_id=PUBLIC_ID, ruleset=ruleset), COLOURS, 0)
        arrangements = [move.text.split()[1:] for move in moves if move.stage == "arrange"]
        if len(arrangements) < len(COLOURS) or any(len(set(codes)) == 1 for codes in arrangements):
            return seed
    raise AssertionError("no seed of the first thousand deals a team of four alike")


def game_with_seed(seed: str) -> Game:
    game = invited_game(len(COLOURS))
    # Before the last seat is taken, when the game's first chance steps are drawn.
    Game.objects.filter(pk=game.pk).update(seed=seed, public_id=PUBLIC_ID)
    return seats_taken(game, time_zones=("UTC",), name="P{}")


def test_the_plan_of_a_game_with_a_team_of_four_alike_is_the_servers_move_for_move():
    game = game_with_seed(first_seed_with_a_team_of_four_alike())
    seats = {seat.position: seat for seat in Seat.objects.filter(game=game).select_related("game")}
    for move in opening(game, COLOURS, 0):
        game.refresh_from_db()
        state = load_state(game)
        if move.stage != "arrange":
            mover = engine.to_move(state)
            assert mover == move.seat, f"the server has seat {mover} to move, not {move}"
        notation_submit(seat=seats[move.seat], text=move.text, seen_version=game.decision_version, source="web")
    game.refresh_from_db()
    state = load_state(game)
    assert state.phase == "race" and state.race.number == 2
