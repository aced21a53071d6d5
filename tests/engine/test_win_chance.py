"""The chance of ending the game first, as the expert weighs its last lots:
the arithmetic against a plain count, and what it changes at the table."""

from __future__ import annotations

import random

import pytest

from games.engine import CLASSIC, Pass, lowest_bid, observe
from games.players import choose, expert, strong, win_chance
from tests.engine.test_players import states_with_a_decision


def counted_first_chance(ends, seat, draws=100_000, seed=5):
    """The same chance, counted over draws of each seat's gold, a tie's
    place shared by drawing one of the tied seats."""
    rng = random.Random(seed)
    amounts = [list(end) for end in ends]
    weights = [list(end.values()) for end in ends]
    first = 0
    for _ in range(draws):
        gold = [rng.choices(a, w)[0] for a, w in zip(amounts, weights, strict=True)]
        best = max(gold)
        first += rng.choice([s for s, g in enumerate(gold) if g == best]) == seat
    return first / draws


TABLES = [
    [{100: 1.0}, {90: 0.5, 110: 0.5}, {100: 0.25, 80: 0.75}],
    [{130: 0.2, 150: 0.5, 170: 0.3}, {140: 0.6, 180: 0.4}, {160: 1.0}, {120: 0.1, 160: 0.9}],
]


@pytest.mark.parametrize("ends", TABLES)
def test_the_chance_of_ending_first_matches_a_count_of_drawn_golds(ends):
    for seat in range(len(ends)):
        assert win_chance.first_chance(ends, seat) == pytest.approx(counted_first_chance(ends, seat), abs=0.006)


@pytest.mark.parametrize("ends", TABLES)
def test_every_seat_s_chance_of_ending_first_adds_up_to_one(ends):
    assert sum(win_chance.first_chance(ends, seat) for seat in range(len(ends))) == pytest.approx(1)


def test_the_last_race_s_prizes_make_a_seat_s_end_gold_with_its_place_chances():
    teams = [["+5", "+5", "+3", "+3"], ["goof", "goof", "+1", "+1"], ["+2"] * 4]
    ends = win_chance.final_gold(teams[0], teams[1:], 70, CLASSIC, CLASSIC.races, 0.8)
    places = strong.race_places(teams[0], teams[1:], CLASSIC, CLASSIC.races)
    assert ends == pytest.approx(
        {70 + prize: chance for prize, chance in zip(CLASSIC.prizes[-1], places, strict=True)} | {70: ends[70]}
    )
    assert sum(ends.values()) == pytest.approx(1)


def last_break_bids(seeds):
    """(state, seat) at the substitute auctions before the last race."""
    for seed in seeds:
        for state, seat in states_with_a_decision(seed, {"bid"}):
            if state.auction.kind == "substitute_auction" and len(state.results) == state.ruleset.races - 1:
                yield state, seat


def test_a_seat_sure_of_ending_first_buys_no_lot_before_the_last_race_that_its_gold_would_buy():
    """Its rivals cannot catch it whatever the last race pays, so a lot can
    add nothing to its chance of winning; judged in gold, the same lot was
    worth buying."""
    passed = 0
    for state, seat in last_break_bids(range(12)):
        rich = state._replace(gold=tuple(1000 if s == seat else gold for s, gold in enumerate(state.gold)))
        view = observe(rich, seat)
        gold_worth = strong.lot_worth(view, rich.ruleset, random.Random(expert.observed_seed(view)),
                                      samples=expert.LOT_DRAWS, later_weight=expert.LATER_RACE_WEIGHT)
        if gold_worth - expert.MARGIN >= lowest_bid(rich.auction.high_bid):
            assert choose(rich, seat, "expert", random.Random(1)) == Pass()
            passed += 1
    assert passed >= 3
