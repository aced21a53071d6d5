"""The computer players: legal, ending games, and blind to every secret."""

from __future__ import annotations

import random

import pytest

from games.engine import CHANCE, CLASSIC, Push, apply, decision_kind, is_over, legal_actions, new_game, observe, to_move
from games.players import choose, race_model
from games.players.autoplay import chance_action
from games.players.playout import determinized
from games.players.strong import team_worth


def states_with_a_decision(seed: int, kinds: set[str]):
    """(state, seat) along one game of simple players, wherever a seat decides
    one of ``kinds``."""
    rng = random.Random(seed)
    state = new_game(CLASSIC, CLASSIC.colours[:4])
    while not is_over(state):
        seat = to_move(state)
        if seat == CHANCE:
            state = apply(state, seat, chance_action(state, rng))
            continue
        if decision_kind(state) in kinds:
            yield state, seat
        state = apply(state, seat, choose(state, seat, "simple", rng))


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_a_computer_players_decision_depends_only_on_what_its_seat_may_know(level):
    rng = random.Random(3)
    compared = hands_differed = 0
    for seed in range(3):
        for state, seat in states_with_a_decision(seed, {"bid", "push", "remove"}):
            if rng.random() > 0.3:
                continue
            swapped = determinized(state, seat, rng)
            assert observe(swapped, seat) == observe(state, seat)
            if state.auction is not None and swapped.auction.hands != state.auction.hands:
                kinds = [[CLASSIC.code_of(c) for c in hand] for hand in state.auction.hands]
                kinds_swapped = [[CLASSIC.code_of(c) for c in hand] for hand in swapped.auction.hands]
                hands_differed += kinds != kinds_swapped
            decided = choose(state, seat, level, random.Random(11))
            assert choose(swapped, seat, level, random.Random(11)) == decided
            compared += 1
    # The swap must have hidden something worth knowing, or the test proves nothing.
    assert compared > 50 and hands_differed > 10


@pytest.mark.parametrize(
    ("levels", "seed"),
    [(["strong", "simple", "strong", "simple"], seed) for seed in range(6)]
    + [(["expert", "simple", "strong", "expert"], seed) for seed in range(3)],
)
def test_games_of_computer_players_end_with_legal_decisions_only(levels, seed):
    rng = random.Random(seed)
    state = new_game(CLASSIC, CLASSIC.colours[:4])
    steps = 0
    while not is_over(state):
        seat = to_move(state)
        if seat == CHANCE:
            action = chance_action(state, rng)
        else:
            action = choose(state, seat, levels[seat], rng)
            assert action in legal_actions(state)
        state = apply(state, seat, action)
        steps += 1
    assert steps < 5000


def test_a_team_of_fives_finishes_the_first_race_on_its_third_roll():
    chances = race_model.chair_chances(["+5"] * 4, CLASSIC, 1, 0, 0.0)
    assert chances[:3] == (0.0, 0.0, 1.0)


def test_a_team_of_goofs_falls_into_the_pond_and_never_finishes():
    assert sum(race_model.chair_chances(["goof"] * 4, CLASSIC, 1, 0, 0.0)) == 0.0


def test_being_pushed_makes_a_chair_slower():
    calm = race_model.chair_chances(["+1", "+2", "+2", "+3"], CLASSIC, 3, 0, 0.0)
    pushed = race_model.chair_chances(["+1", "+2", "+2", "+3"], CLASSIC, 3, 0, 0.3)
    within = 12
    assert sum(pushed[:within]) < sum(calm[:within])


def test_a_sure_winner_alone_expects_the_first_prize():
    sure = race_model.chair_chances(["+5"] * 4, CLASSIC, 1, 0, 0.0)
    assert race_model.expected_prize(sure, [], CLASSIC.prizes[0], 0) == pytest.approx(CLASSIC.prizes[0][0])


def test_a_chair_that_rolls_first_wins_the_tie_of_equal_roll_counts():
    sure = race_model.chair_chances(["+5"] * 4, CLASSIC, 1, 0, 0.0)
    prizes = CLASSIC.prizes[0]
    assert race_model.expected_prize(sure, [(sure, 1.0)], prizes, 0) == pytest.approx(prizes[1])
    assert race_model.expected_prize(sure, [(sure, 0.0)], prizes, 0) == pytest.approx(prizes[0])


def test_a_better_team_is_worth_more_gold():
    rivals = [["+1", "+2", "+3", "goof"]] * 3
    assert team_worth(["+5", "+3", "+3", "devil"], rivals, CLASSIC, 1) > team_worth(
        ["goof", "+1", "+1", "+2"], rivals, CLASSIC, 1
    )


def test_the_strong_player_whose_chair_finished_still_pushes_the_last_rival_into_the_pond():
    """A Devil carried red over the line; yellow stands on the last space
    before the pond. Drowning it leaves green the only one to share the prizes
    left, and one of them unpaid: red's rivals end poorer."""
    from tests.engine.scripting import racing, run

    state = racing(
        {"red": ["+5", "+5", "devil", "+3"], "yellow": ["goof", "+2", "+1", "+1"], "green": ["+1"] * 4},
        start="red",
    )
    state = run(state, "red 1", "yellow 2", "green 1", "red 2", "yellow 1", "green 1", "red 4", "yellow 1", "green 1")
    state = run(state, "red 3")  # the Devil: from 13 over the line at 15
    chairs = observe(state, 0)["race"]["chairs"]
    assert (decision_kind(state), chairs["red"]["status"], chairs["yellow"]["position"]) == ("push", "finished", -2)
    assert choose(state, 0, "strong", random.Random(1)) == Push("yellow")
