"""The decisions a browser game will click, worked out before the first click.

Chance in a game follows from its seed, which the test can read once the game
exists. So the engine, fed the same chance outcomes as the server, can tell
which choices lead through everything the browser journey must show (bids and
passes, arranged teams, a Devil's push in race 1, the removal, two substitute
auctions). The browser then makes exactly these decisions; if a page ever
offers a different decision than the plan expects, the server and the engine
disagree and the test fails.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games import engine
from games.models import Game
from games.services.game_state import Step, apply_with_chance


@dataclass(frozen=True)
class Move:
    seat: int
    text: str  # the engine's notation: "bid 3", "pass", "roll", "push blue", "remove …", "arrange …"
    stage: str  # "start auction", "race 1", "removal", "substitute auction"


def _stage(state: engine.State) -> str:
    phase = state.phase
    if phase == "race":
        return f"race {state.race.number}"
    return {"start_auction": "start auction", "substitute_auction": "substitute auction"}.get(phase, phase)


def _choose(state: engine.State, seat: int, rng: random.Random) -> str:
    kind = engine.decision_kind(state)
    if kind == "roll":
        return "roll"
    if kind == "push":
        racing = [
            colour for colour, chair in engine.observe(state, seat)["race"]["chairs"].items()
            if chair["status"] == "racing" and colour != state.colours[seat]
        ]
        return f"push {rng.choice(racing)}"
    if kind == "remove":
        picks = [f"{colour}:{rng.randint(1, state.ruleset.display_size)}" for colour in state.colours]
        return "remove " + " ".join(picks)
    auction = state.auction
    low = 0 if auction.high_bid is None else auction.high_bid + 1
    gold = state.gold[seat]
    if gold >= low and rng.random() < 0.55:
        return f"bid {min(gold, low + rng.randint(0, 2))}"
    return "pass"


def _arrangement(state: engine.State, seat: int, rng: random.Random) -> str | None:
    """A new order for the seat's team; None for a team of four alike, which
    no order changes: the server records nothing for an order sent back
    unchanged (decisions.arrange_submit), so the plan may not either, or every
    later chance step would be numbered one ahead of the server's."""
    codes = [engine.observe(state, seat)["players"][seat]["display"][slot]["code"] for slot in range(4)]
    if len(set(codes)) == 1:
        return None
    shuffled = codes[:]
    while shuffled == codes:
        rng.shuffle(shuffled)
    return "arrange " + " ".join(shuffled)


def opening(game: Game, colours: list[str], variant: int) -> list[Move]:
    """Every decision from the start player's draw to race 2's first roll,
    for one choice of bids and pushes (``variant`` seeds those choices)."""
    rng = random.Random(variant)
    sim = Game(seed=game.seed, public_id=game.public_id)
    state, version = apply_with_chance(
        sim, engine.new_game(engine.Ruleset.from_json(game.ruleset), colours), None, 0, []
    )
    moves: list[Move] = []
    arranged = set()
    while not (state.phase == "race" and state.race.number == 2):
        for seat in range(state.players):
            # Arrange each start team once, as soon as it is placed.
            if (
                state.phase == "start_auction" or (state.phase == "race" and state.race.number == 1)
            ) and seat not in arranged and engine.can_arrange(state, seat):
                arranged.add(seat)
                text = _arrangement(state, seat, rng)
                if text is None:
                    continue
                moves.append(Move(seat, text, "arrange"))
                state, version = _step(sim, state, seat, text, version)
        seat = engine.to_move(state)
        text = _choose(state, seat, rng)
        moves.append(Move(seat, text, _stage(state)))
        state, version = _step(sim, state, seat, text, version)
    return moves


def _step(sim: Game, state: engine.State, seat: int, text: str, version: int):
    action = engine.parse(text, state.ruleset)
    return apply_with_chance(sim, state, Step(seat, action, "player", "web"), version, [])


def shows_everything(moves: list[Move]) -> bool:
    said = {(m.stage, m.text.split()[0]) for m in moves}
    pushes = [m for m in moves if m.stage == "race 1" and m.text.startswith("push ")]
    return (
        {("start auction", "bid"), ("start auction", "pass"), ("removal", "remove")} <= said
        and {("substitute auction", "bid"), ("substitute auction", "pass")} <= said
        and any(m.stage == "arrange" for m in moves)
        and bool(pushes)
    )


def plan_for(game: Game, colours: list[str]) -> list[Move]:
    for variant in range(1000):
        moves = opening(game, colours, variant)
        if shows_everything(moves):
            return moves
    raise AssertionError("no choice of bids and pushes shows a Devil's push in race 1")
