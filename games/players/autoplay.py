"""Simple automatic players for simulations and benchmarks (not the engine:
they use a random number generator the caller passes in)."""

from __future__ import annotations

import random
from collections.abc import Collection

from games.engine import (
    CHANCE,
    Action,
    Bid,
    Pass,
    State,
    chance_outcomes,
    decision_kind,
    default_action,
    legal_actions,
    lowest_bid,
    to_move,
)


def random_action(state: State, rng: random.Random) -> Action:
    """Any legal action, uniformly: what the benchmark and playout tests use."""
    return rng.choice(legal_actions(state))


def chance_action(state: State, rng: random.Random) -> Action:
    return rng.choice(chance_outcomes(state))


def _worth(state: State, cards: Collection[int]) -> float:
    """Average steps a team of these cards makes per roll (a Devil's push counts half)."""
    if not cards:
        return 0.0
    kinds = [state.ruleset.kind_of(c) for c in cards]
    return sum(k.move + k.push / 2 for k in kinds) / len(kinds)


def _deck_average(state: State) -> float:
    return _worth(state, range(state.ruleset.deck_size))


def sensible_action(state: State, rng: random.Random) -> Action | None:
    """A modest player: bids up to what the cards it can see seem worth,
    otherwise does what the deadline default would do."""
    seat = to_move(state)
    if seat == CHANCE:
        return chance_action(state, rng)
    if decision_kind(state) != "bid":
        return default_action(state)
    auction = state.auction
    if auction is None or seat is None:
        raise ValueError("a bid is decided with an auction under way and a seat to move")
    seen = list(auction.face_up) + list(auction.hand_of(seat))
    unseen = state.ruleset.lot_size - len(seen)
    average = _deck_average(state)
    expected = (_worth(state, seen) * len(seen) + average * unseen) / state.ruleset.lot_size
    current = _worth(state, [c for c in state.displays[seat] if c >= 0]) if state.displays[seat] else 0
    edge = expected - (current if auction.kind == "substitute_auction" else average * 0.6)
    limit = min(state.gold[seat], max(0, round(edge * 12 + rng.randint(-2, 3))))
    lowest = lowest_bid(auction.high_bid)
    if lowest <= limit and (auction.high_bid is None or rng.random() < 0.85):
        return Bid(lowest)
    return Pass()
