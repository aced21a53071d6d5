"""Random playouts for 3 to 6 players, checking invariants after every step.

Every seat picks uniformly among its legal actions, chance picks uniformly
among its outcomes, and now and then a seat that may arrange its team does so
in a random order. After every step:

- the 40 cards are all somewhere, each exactly once;
- gold moved only by a settled auction's price, the last team's price and
  prizes, as predicted by bookkeeping kept here, and never below 0;
- the state survives JSON text unchanged;
- no seat's view names a card of another bidder's hand, of the deck or of the
  discard pile, and the spectator's view names none of them.

At the end: the game is over within a bounded number of steps, and replaying
the log (whole, and up to a random midpoint) rebuilds the live state.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    CHANCE,
    CLASSIC,
    Arrange,
    Bid,
    apply,
    can_arrange,
    legal_actions,
    log_from_json,
    log_to_json,
    new_game,
    observe,
    replay,
    state_from_json,
    state_to_json,
    to_move,
)

from .scripting import accounted_cards

MAX_STEPS = 20000
ARRANGE_CHANCE = 0.05


# --- bookkeeping kept independently of the engine --------------------------------


def predicted_gold(before, action, after) -> list[int]:
    """Each seat's gold after one step, from the gold before and what happened:
    a settled lot costs its buyer the final high bid, the last start team costs
    its price, and each new race result pays its prizes."""
    gold = list(before.gold)
    rules = before.ruleset
    buyers: list[int] = []
    if before.auction is not None:
        lot = set(before.auction.lot())
        buyers = [s for s in range(before.players) if lot & set(after.displays[s])]
        assert len(buyers) <= 1
        if buyers:
            high = observe(before, None)["auction"]["high_bid"]
            price = action.amount if isinstance(action, Bid) else (high or 0)
            gold[buyers[0]] -= price
            if isinstance(action, Bid):
                assert buyers[0] == to_move(before)
            elif high is not None:
                assert before.colours[buyers[0]] == observe(before, None)["auction"]["high_bidder"]
    newcomers = [
        s
        for s in range(before.players)
        if not before.displays[s] and after.displays[s] and s not in buyers
    ]
    assert len(newcomers) <= 1
    for s in newcomers:
        assert after.phase == "last_team"
        gold[s] -= rules.last_team_price
    for result in after.results[len(before.results) :]:
        assert sorted(result.ranking) == list(range(before.players))
        row = rules.prizes[result.number - 1]
        expected = tuple(
            row[place] if place < len(row) and s not in result.pond else 0
            for place, s in enumerate(result.ranking)
        )
        assert result.prizes == expected
        for place, s in enumerate(result.ranking):
            gold[s] += expected[place]
    return gold


# --- secrecy ------------------------------------------------------------------------


def card_ids_in(view) -> set[int]:
    """Every card id in an observation: each {"id", "code"} dict is a card."""
    found: set[int] = set()
    stack = [view]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            if len(node) == 2 and "id" in node and "code" in node:
                found.add(node["id"])
            else:
                stack.extend(node.values())
        elif kind is list:
            stack.extend(node)
    return found


def check_secrets(state, step: int) -> None:
    hands = {}
    if state.auction is not None:
        hands = {s: set(state.auction.hand_of(s)) for s in state.auction.bidders}
    hidden = set(state.deck) | set(state.discard)
    viewers = [*range(state.players), None]
    for viewer in viewers:
        view = observe(state, viewer)
        if viewer == viewers[step % len(viewers)]:
            # One view a step, each viewer in turn, goes through JSON text
            # (test_notation_and_views checks every view of chosen states).
            assert json.loads(json.dumps(view)) == view
        ids = card_ids_in(view)
        secret = set(hidden)
        for bidder, hand in hands.items():
            if bidder != viewer:
                secret |= hand
        assert ids.isdisjoint(secret), (viewer, ids & secret)
        if viewer in hands:
            mine = {card["id"] for card in view["auction"]["my_cards"]}
            assert mine == hands[viewer]
        elif state.auction is not None:
            assert view["auction"]["my_cards"] is None
        assert view["deck_size"] == len(state.deck)
        assert view["discard_size"] == len(state.discard)


# --- the playout ------------------------------------------------------------------------


def maybe_arrange(state, rng):
    seats = [s for s in range(state.players) if can_arrange(state, s)]
    if not seats or rng.random() >= ARRANGE_CHANCE:
        return None
    seat = rng.choice(seats)
    codes = [state.ruleset.code_of(card) for card in state.displays[seat]]
    rng.shuffle(codes)
    return seat, Arrange(tuple(codes))


def check_step(before, seat, action, after, step: int) -> None:
    assert sorted(accounted_cards(after)) == list(range(40))
    assert list(after.gold) == predicted_gold(before, action, after)
    assert all(gold >= 0 for gold in after.gold)
    if isinstance(action, Arrange):
        assert [after.ruleset.code_of(c) for c in after.displays[seat]] == list(action.codes)
        assert sorted(after.displays[seat]) == sorted(before.displays[seat])
        # Arranging is out of turn and never makes anyone wait.
        assert after._replace(displays=before.displays) == before
    assert state_from_json(json.loads(json.dumps(state_to_json(after)))) == after
    check_secrets(after, step)


def play_out(players: int, seed: int):
    rng = random.Random(seed)
    colours = rng.sample(CLASSIC.colours, players)
    state = new_game(CLASSIC, colours)
    states, log = [state], []
    for _ in range(MAX_STEPS):
        mover = to_move(state)
        if mover is None:
            break
        arranged = maybe_arrange(state, rng)
        if arranged is not None:
            seat, action = arranged
        else:
            seat, action = mover, rng.choice(legal_actions(state))
        after = apply(state, seat, action)
        check_step(state, seat, action, after, len(log))
        log.append((seat, action))
        states.append(after)
        state = after
    return colours, state, states, log, rng


# Examples per player count. Every step of a game is checked in full (seven
# observations walked and a JSON round trip of the state for six players), so a
# game costs about 0.5 s with three players and 1.5 s with six; these counts
# keep the file near 30 s on a two-core machine.
EXAMPLES = {3: 12, 4: 8, 5: 6, 6: 5}


@pytest.mark.heavy
@pytest.mark.parametrize("players", sorted(EXAMPLES))
def test_random_games_keep_every_invariant_and_replay_exactly(players):
    @settings(
        max_examples=EXAMPLES[players],
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(min_value=0, max_value=2**32 - 1))
    def playout(seed):
        colours, state, states, log, rng = play_out(players, seed)

        assert state.phase == "over" and to_move(state) is None
        assert len(log) < MAX_STEPS
        assert len(state.results) == CLASSIC.races
        assert any(seat == CHANCE for seat, _ in log)

        assert replay(CLASSIC, colours, log) == state
        middle = rng.randrange(len(log) + 1)
        assert replay(CLASSIC, colours, log[:middle]) == states[middle]

        text = json.dumps(log_to_json(log))
        assert log_from_json(json.loads(text), CLASSIC) == log

    playout()


def test_importing_the_engine_loads_no_django_module():
    root = Path(__file__).resolve().parents[2]
    check = (
        "import games.engine, sys; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", check], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
