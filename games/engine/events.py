"""What one step did, as public, JSON-safe events.

History pages, emails and the ``simulate`` account turn these into sentences;
they hold nothing a spectator may not know (a drawn auction card appears only
as "dealt", a discarded one only as "discarded")."""

from __future__ import annotations

from typing import cast

from .actions import Action, Arrange, Bid, Pass, Push, Remove, StartPlayer
from .state import CHANCE, HOLE, LAST_TEAM, OVER, REFILL, Auction, State, standings

# One event: JSON-safe, with a "type" that says which other keys it has. The
# events are stored as JSON and read back from there, so a plain mapping is
# what their readers get either way.
Event = dict[str, object]


def events(before: State, seat: int, action: Action, after: State) -> list[Event]:
    colours = before.colours
    code = before.ruleset.code_of
    out: list[Event] = []
    actor = None if seat == CHANCE else colours[seat]

    if isinstance(action, StartPlayer):
        out.append({"type": "start_player", "colour": action.colour})
    elif isinstance(action, Arrange):
        out.append({"type": "arrange", "colour": actor, "codes": list(action.codes)})
    elif isinstance(action, Bid):
        out.append({"type": "bid", "colour": actor, "amount": action.amount})
    elif isinstance(action, Pass):
        out.append({"type": "pass", "colour": actor, "automatic": False})
    elif isinstance(action, Remove):
        picks = []
        for colour, slot in action.slots:
            owner = before.seat_of(colour)
            picks.append({"colour": colour, "slot": slot, "code": code(before.displays[owner][slot - 1])})
        out.append({"type": "remove", "colour": actor, "picks": picks})

    out.extend(_race_events(before, seat, action, after))
    out.extend(_auction_events(before, seat, action, after))
    out.extend(_display_events(before, after))
    out.extend(_race_start_events(before, after))
    if after.phase == OVER and before.phase != OVER:
        out.append(
            {
                "type": "game_over",
                "standings": [
                    {"colour": colours[s], "gold": after.gold[s]} for s in standings(after)
                ],
            }
        )
    return out


def _race_events(before: State, seat: int, action: Action, after: State) -> list[Event]:
    out: list[Event] = []
    colours = before.colours
    race_before, race_after = before.race, after.race
    if race_before is not None and race_before.awaiting in ("die", "push"):
        if race_before.awaiting == "die" and race_after is not None and race_after.number == race_before.number:
            assert race_after.last_roll is not None  # the die just rolled in this race
            roller, face, card = race_after.last_roll
            out.append(
                {
                    "type": "roll",
                    "colour": colours[roller],
                    "face": face,
                    "code": before.ruleset.code_of(card),
                    "from": race_before.positions[roller],
                    "to": race_after.positions[roller],
                    "status": race_after.status[roller],
                }
            )
        if isinstance(action, Push):
            if action.colour is None:
                out.append({"type": "push", "colour": colours[seat], "target": None})
            else:
                target = before.seat_of(action.colour)
                assert race_after is not None  # a race, once begun, stays on the board
                out.append(
                    {
                        "type": "push",
                        "colour": colours[seat],
                        "target": action.colour,
                        "from": race_before.positions[target],
                        "to": race_after.positions[target],
                        "status": race_after.status[target],
                    }
                )
    if len(after.results) > len(before.results):
        result = after.results[-1]
        out.append(
            {
                "type": "race_over",
                "number": result.number,
                "ranking": [colours[s] for s in result.ranking],
                "prizes": list(result.prizes),
                "pond": [colours[s] for s in result.pond],
                "gold": {colours[s]: after.gold[s] for s in range(after.players)},
            }
        )
    return out


def _race_start_events(before: State, after: State) -> list[Event]:
    out: list[Event] = []
    colours = before.colours
    race_before, race_after = before.race, after.race
    if race_after is not None and (race_before is None or race_after.number != race_before.number):
        out.append(
            {
                "type": "race_start",
                "number": race_after.number,
                "first": colours[race_after.first],
                "finish": after.ruleset.finish_spaces[race_after.number - 1],
            }
        )
    return out


def _same_auction(a: Auction | None, b: Auction | None) -> bool:
    return a is not None and b is not None and (a.kind, a.number) == (b.kind, b.number)


def _auction_events(before: State, seat: int, action: Action, after: State) -> list[Event]:
    out: list[Event] = []
    colours = before.colours
    old, new = before.auction, after.auction
    if old is not None and old.turn is not None:
        # The casts: _same_auction(old, new) holds only if new is an auction.
        still_in = set(cast(Auction, new).active) if _same_auction(old, new) else set()
        if not _same_auction(old, new):
            winner = _buyer(before, after)
            still_in = {winner} if winner is not None else set()
        gone = [s for s in old.active if s not in still_in and s != seat]
        for s in gone:
            out.append({"type": "pass", "colour": colours[s], "automatic": True})
        held_before = sum(1 for h in old.hands if h)
        held_after = sum(1 for h in cast(Auction, new).hands if h) if _same_auction(old, new) else None
        if held_after is not None and held_after < held_before:
            out.append({"type": "discarded", "count": held_before - held_after})
        if not _same_auction(old, new):
            winner = _buyer(before, after)
            if winner is None:
                out.append({"type": "unsold", "kind": old.kind, "number": old.number})
            else:
                out.append(
                    {
                        "type": "auction_won",
                        "kind": old.kind,
                        "number": old.number,
                        "colour": colours[winner],
                        "price": before.gold[winner] - after.gold[winner],
                        "codes": [before.ruleset.code_of(c) for c in after.displays[winner]],
                    }
                )
    if new is not None and not _same_auction(old, new):
        out.append(
            {
                "type": "auction_open",
                "kind": new.kind,
                "number": new.number,
                "opener": colours[new.bidders[0]],
                "bidders": [colours[s] for s in new.bidders],
            }
        )
    if new is not None and new.face_up and not (old is not None and old.face_up == new.face_up):
        out.append({"type": "face_up", "codes": [after.ruleset.code_of(c) for c in new.face_up]})
    return out


def _buyer(before: State, after: State) -> int | None:
    auction = before.auction
    assert auction is not None  # only asked about an auction that was open
    lot = set(auction.lot())
    for s in range(before.players):
        display = after.displays[s]
        if display != before.displays[s] and display and HOLE not in display and set(display) <= lot:
            return s
    return None


def _display_events(before: State, after: State) -> list[Event]:
    """Cards drawn face up into a display: the last team and the refill."""
    out: list[Event] = []
    code = after.ruleset.code_of
    for s in range(after.players):
        old, new = before.displays[s], after.displays[s]
        if old == new or not new or HOLE in new:
            continue
        if before.phase == LAST_TEAM:
            out.append(
                {
                    "type": "last_team",
                    "colour": after.colours[s],
                    "price": after.ruleset.last_team_price,
                    "codes": [code(c) for c in new],
                }
            )
        elif before.phase == REFILL:
            slot = old.index(HOLE)
            out.append(
                {"type": "refill", "colour": after.colours[s], "slot": slot + 1, "code": code(new[slot])}
            )
    return out
