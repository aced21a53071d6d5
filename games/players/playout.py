"""Monte-Carlo playouts with the engine: the method the strong player is
measured against (bench/players.py), not offered at the table.

For each decision it deals the cards its seat cannot see anew, at random
among the places they may be (a determinization), plays each candidate and
then the rest of the game with simple players for everyone, and keeps the
candidate whose playouts left it furthest ahead of the others in gold. The
candidates take turns on the same deals and the same dice, until the time
allowed for one decision runs out."""

from __future__ import annotations

import random
import time

from games.engine import (
    CHANCE,
    Action,
    Bid,
    Pass,
    Push,
    Roll,
    State,
    apply,
    default_action,
    is_over,
    legal_actions,
    to_move,
)

from .autoplay import chance_action, sensible_action

# CPU seconds one decision may take: the strong player's p99 target is 0.2.
SECONDS_PER_DECISION = 0.15


def decide(state: State, seat: int, rng: random.Random, seconds: float = SECONDS_PER_DECISION) -> Action | None:
    candidates = _candidates(state, seat)
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    totals = [0.0] * len(candidates)
    rounds = 0
    started = time.process_time()
    while rounds == 0 or time.process_time() - started < seconds:
        world = determinized(state, seat, rng)
        seed = rng.random()
        for index, candidate in enumerate(candidates):
            totals[index] += _playout(apply(world, seat, candidate), seat, random.Random(seed))
        rounds += 1
    return candidates[max(range(len(candidates)), key=totals.__getitem__)]


def _candidates(state: State, seat: int) -> list[Action]:
    legal = legal_actions(state)
    if not legal:
        return []
    first = legal[0]
    if isinstance(first, Roll):
        return [first]
    if isinstance(first, Pass):
        # Pass or the lowest raise, as the strong player chooses: the whole
        # ladder of bids would leave each a playout or two.
        return [first, *[a for a in legal[1:2] if isinstance(a, Bid)]]
    if isinstance(first, Push):
        return list(legal)
    # Removals: 4 ** players of them would leave each no playout at all; the
    # default (each rival's best card, the own worst) stands for them.
    default = default_action(state)
    return [default] if default is not None else [legal[0]]


def determinized(state: State, seat: int, rng: random.Random) -> State:
    """The state with every card ``seat`` may not know (the deck, the
    discard pile, the other bidders' hands) dealt anew among those places."""
    auction = state.auction
    hidden_hands = [] if auction is None else [i for i, bidder in enumerate(auction.bidders) if bidder != seat]
    hidden = list(state.deck) + list(state.discard)
    if auction is not None:
        for index in hidden_hands:
            hidden += auction.hands[index]
    hidden.sort()  # the deal depends on which cards are hidden, never on where they lie
    rng.shuffle(hidden)
    deck, hidden = hidden[: len(state.deck)], hidden[len(state.deck):]
    discard, hidden = hidden[: len(state.discard)], hidden[len(state.discard):]
    if auction is not None:
        hands = list(auction.hands)
        for index in hidden_hands:
            size = len(hands[index])
            hands[index], hidden = tuple(hidden[:size]), hidden[size:]
        auction = auction._replace(hands=tuple(hands))
    return state._replace(deck=tuple(sorted(deck)), discard=tuple(discard), auction=auction)


def _playout(state: State, me: int, rng: random.Random) -> float:
    while not is_over(state):
        mover = to_move(state)
        action = chance_action(state, rng) if mover == CHANCE else sensible_action(state, rng)
        if mover is None or action is None:
            raise ValueError("a game that is not over has a seat to move and a decision for it")
        state = apply(state, mover, action)
    others = [gold for seat, gold in enumerate(state.gold) if seat != me]
    return state.gold[me] - sum(others) / len(others)
