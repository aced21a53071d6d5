"""The expert player: its race simulation plays a race as the engine does,
and its decisions are the same for the same observation (that they are
legal and blind to secrets: test_players.py)."""

from __future__ import annotations

import random

from games.engine import (
    CHANCE,
    Die,
    Push,
    Roll,
    apply,
    decision_kind,
    default_action,
    observe,
    to_move,
)
from games.players import choose, expert, race_sim
from tests.engine.test_players import states_with_a_decision


class RecordingDice(random.Random):
    """Dice that remember every draw, so the engine can be shown the same faces."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws: list[float] = []

    def random(self) -> float:
        value = super().random()
        self.draws.append(value)
        return value


def race_states(seeds: range):
    """(state, seat) at a roll decision, somewhere in every race of some games."""
    for seed in seeds:
        for state, seat in states_with_a_decision(seed, {"roll"}):
            if random.Random(hash((seed, state.race.number, state.race.rolls))).random() < 0.15:
                yield state, seat


def test_the_simulated_rest_of_a_race_ends_as_the_engine_ends_it_on_the_same_dice():
    compared = 0
    for state, seat in race_states(range(4)):
        table = expert.table_of(observe(state, seat), state.ruleset)
        dice = RecordingDice(compared)
        players = state.players
        race_sim.played_out(table, state.ruleset, (seat - 1) % players, dice)
        simulated = race_sim.prizes(table, race_sim.ranking(table), state.ruleset)

        # The engine, shown the faces the simulation drew, every push the default.
        faces = iter(int(draw * state.ruleset.display_size) + 1 for draw in dice.draws)
        races_run = len(state.results)
        while len(state.results) == races_run:
            mover = to_move(state)
            if mover == CHANCE:
                action = Die(next(faces))
            elif decision_kind(state) == "roll":
                action = Roll()
            else:
                action = default_action(state)
            state = apply(state, mover, action)
        result = state.results[-1]
        paid = [0] * players
        for place, ranked in enumerate(result.ranking):
            paid[ranked] = result.prizes[place]
        assert (race_sim.ranking(table), simulated) == (list(result.ranking), paid)
        compared += 1
    assert compared > 30


def test_the_expert_player_decides_the_same_for_the_same_observation_whatever_its_random_numbers():
    sampled = random.Random(7)
    decided = 0
    for state, seat in states_with_a_decision(7, {"bid", "push"}):
        if sampled.random() < 0.4:
            assert choose(state, seat, "expert", random.Random(1)) == choose(state, seat, "expert", random.Random(2))
            decided += 1
    assert decided > 20


def test_the_expert_player_whose_chair_finished_still_pushes_the_last_rival_into_the_pond():
    """As the strong player's scenario: red's Devil carried it over the line;
    drowning yellow leaves one prize unpaid and a rival poorer."""
    from tests.engine.scripting import racing, run

    state = racing(
        {"red": ["+5", "+5", "devil", "+3"], "yellow": ["goof", "+2", "+1", "+1"], "green": ["+1"] * 4},
        start="red",
    )
    state = run(state, "red 1", "yellow 2", "green 1", "red 2", "yellow 1", "green 1", "red 4", "yellow 1", "green 1")
    state = run(state, "red 3")
    assert observe(state, 0)["race"]["chairs"]["red"]["status"] == "finished"
    assert choose(state, 0, "expert", random.Random(1)) == Push("yellow")
