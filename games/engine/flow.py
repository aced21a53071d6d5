"""Moves the game on through everything that needs nobody's decision."""

from __future__ import annotations

from . import auction as auctions
from .race import begin_race
from .state import (
    HOLE,
    LAST_TEAM,
    RACE,
    REFILL,
    SETUP,
    START_AUCTION,
    SUBSTITUTE_AUCTION,
    State,
    clockwise_from,
)


def advance(state: State) -> State:
    """Run forced steps until a seat or chance must act (or the game is over)."""
    if state.phase == RACE and not state.draws:
        return state  # nothing in a race happens by itself
    while True:
        nxt = _forced_step(state)
        if nxt is None:
            return auctions.ensure_deck(state)
        state = nxt


def _forced_step(state: State) -> State | None:
    if state.draws:
        return None
    phase = state.phase
    if phase in (START_AUCTION, SUBSTITUTE_AUCTION):
        if state.auction is None:
            return _after_auction(state)
        if state.auction.turn is None:
            return auctions.start_bidding(state)
        return None
    if phase == LAST_TEAM:
        return begin_race(state, 1)
    if phase == REFILL:
        return _next_substitute(state)
    if phase == SETUP and state.start_player is not None:
        return _next_start_auction(state)
    return None


def _after_auction(state: State) -> State:
    if state.phase == START_AUCTION:
        return _next_start_auction(state)
    return _next_substitute(state)


def _next_start_auction(state: State) -> State:
    n = state.players
    without = {s for s in range(n) if not state.displays[s]}
    if len(without) >= 2:
        if state.last_opener is None:
            opener = state.start_player
            assert opener is not None  # drawn before the first start auction
        else:
            after = clockwise_from((state.last_opener + 1) % n, n)
            opener = next(s for s in after if s in without)
        number = n - len(without) + 1
        state = state._replace(last_opener=opener)
        return auctions.open_auction(state, START_AUCTION, number, opener, without)
    (last,) = without
    size = state.ruleset.display_size
    gold = list(state.gold)
    gold[last] -= state.ruleset.last_team_price
    displays = list(state.displays)
    displays[last] = (HOLE,) * size
    arrangeable = list(state.arrangeable)
    arrangeable[last] = True
    return state._replace(
        phase=LAST_TEAM,
        gold=tuple(gold),
        displays=tuple(displays),
        arrangeable=tuple(arrangeable),
        draws=tuple(("slot", last, index) for index in range(size)),
    )


def _next_substitute(state: State) -> State:
    held = state.break_auctions
    if held >= state.ruleset.substitute_auctions:
        assert state.race is not None  # a break follows a race
        return begin_race(state, state.race.number + 1)
    assert state.last_placed is not None  # set when the race ended
    opener = (state.last_placed + held) % state.players
    return auctions.open_auction(
        state, SUBSTITUTE_AUCTION, held + 1, opener, set(range(state.players))
    )
