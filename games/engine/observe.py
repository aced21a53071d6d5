"""What one viewer may know, as JSON-safe data (docs/rules-notes.md#what-is-secret).

Pages, emails and any API render only from this, never from the raw state."""

from __future__ import annotations

from typing import TypedDict

from .rules import DecisionKind, can_arrange, decision_kind
from .state import (
    CHANCE,
    HOLE,
    OVER,
    AuctionKind,
    Awaiting,
    ChairStatus,
    Phase,
    State,
    standings,
    to_move,
)


class CardView(TypedDict):
    id: int
    code: str


class PlayerView(TypedDict):
    seat: int
    colour: str
    gold: int
    display: list[CardView | None]  # None: a hole left by a removal
    can_arrange: bool


class AuctionView(TypedDict):
    kind: AuctionKind
    number: int
    bidders: list[str]
    active: list[str]
    face_up: list[CardView | None]
    cards_held: dict[str, int]
    high_bid: int | None
    high_bidder: str | None
    turn: str | None
    discards_left: int
    my_cards: list[CardView | None] | None  # None: the viewer does not bid


class ChairView(TypedDict):
    position: int
    status: ChairStatus


class LastRollView(TypedDict):
    colour: str
    face: int
    code: str


class RaceView(TypedDict):
    number: int
    finish: int
    prizes: list[int]
    first: str
    turn: str
    awaiting: Awaiting
    rolls: int
    chairs: dict[str, ChairView]
    arrivals: list[str]
    fallen: list[str]
    last_roll: LastRollView | None


class ResultView(TypedDict):
    number: int
    ranking: list[str]
    prizes: list[int]
    pond: list[str]
    gold: dict[str, int]


class Observation(TypedDict):
    """What ``observe`` returns; seats are named by colour throughout."""

    viewer: str | None
    ruleset: str
    phase: Phase
    to_move: str | None  # a colour, "chance", or None once the game is over
    decision: DecisionKind | None
    start_player: str | None
    players: list[PlayerView]
    deck_size: int
    discard_size: int
    reshuffles: int
    auction: AuctionView | None
    race: RaceView | None
    results: list[ResultView]
    last_placed: str | None
    standings: list[str] | None  # only once the game is over


def _card(state: State, card: int) -> CardView | None:
    if card == HOLE:
        return None
    return {"id": card, "code": state.ruleset.code_of(card)}


def observe(state: State, seat: int | None) -> Observation:
    """The view of ``seat``; ``None`` is the spectator, who sees no secret at all."""
    colours = state.colours
    mover = to_move(state)
    view: Observation = {
        "viewer": None if seat is None else colours[seat],
        "ruleset": state.ruleset.name,
        "phase": state.phase,
        "to_move": "chance" if mover == CHANCE else (None if mover is None else colours[mover]),
        "decision": decision_kind(state),
        "start_player": None if state.start_player is None else colours[state.start_player],
        "players": [
            {
                "seat": s,
                "colour": colours[s],
                "gold": state.gold[s],
                "display": [_card(state, c) for c in state.displays[s]],
                "can_arrange": can_arrange(state, s),
            }
            for s in range(state.players)
        ],
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "reshuffles": state.reshuffles,
        "auction": _auction(state, seat),
        "race": _race(state),
        "results": [
            {
                "number": r.number,
                "ranking": [colours[s] for s in r.ranking],
                "prizes": list(r.prizes),
                "pond": [colours[s] for s in r.pond],
                "gold": {colours[s]: r.gold[s] for s in range(state.players)},
            }
            for r in state.results
        ],
        "last_placed": None if state.last_placed is None else colours[state.last_placed],
        "standings": [colours[s] for s in standings(state)] if state.phase == OVER else None,
    }
    return view


def _auction(state: State, seat: int | None) -> AuctionView | None:
    auction = state.auction
    if auction is None:
        return None
    colours = state.colours
    mine = None
    if seat is not None and seat in auction.bidders:
        mine = [_card(state, c) for c in auction.hand_of(seat)]
    return {
        "kind": auction.kind,
        "number": auction.number,
        "bidders": [colours[s] for s in auction.bidders],
        "active": [colours[s] for s in auction.active],
        "face_up": [_card(state, c) for c in auction.face_up],
        "cards_held": {colours[s]: len(h) for s, h in zip(auction.bidders, auction.hands, strict=True)},
        "high_bid": auction.high_bid,
        "high_bidder": None if auction.high_bidder is None else colours[auction.high_bidder],
        "turn": None if auction.turn is None else colours[auction.turn],
        "discards_left": auction.discards_left,
        "my_cards": mine,
    }


def _race(state: State) -> RaceView | None:
    race = state.race
    if race is None:
        return None
    colours = state.colours
    last = race.last_roll
    return {
        "number": race.number,
        "finish": state.ruleset.finish_spaces[race.number - 1],
        "prizes": list(state.ruleset.prizes[race.number - 1]),
        "first": colours[race.first],
        "turn": colours[race.turn],
        "awaiting": race.awaiting,
        "rolls": race.rolls,
        "chairs": {
            colours[s]: {"position": race.positions[s], "status": race.status[s]}
            for s in range(state.players)
        },
        "arrivals": [colours[s] for s in race.arrivals],
        "fallen": [colours[s] for s in race.fallen],
        "last_roll": None
        if last is None
                # The code only: the card itself may since have gone to the discard pile.
        else {"colour": colours[last[0]], "face": last[1], "code": state.ruleset.code_of(last[2])},
    }
