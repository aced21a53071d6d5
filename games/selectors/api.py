"""What the JSON API answers, as JSON-safe data built from the engine's
observation for the viewer (a seat, or nobody for a spectator) and the
public events of the action log; the shapes are the ones
games/web/openapi.py documents."""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import ActionRecord, Game, Seat
from games.narrate import describe
from games.services.seats import game_seats

from .public import game_summary

# One page of the history; a client asks again with ``after`` for the next.
HISTORY_PAGE = 200


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def _seats(seats: list[Seat]) -> list[dict]:
    return [
        {
            "position": seat.position,
            "colour": seat.colour,
            "name": seat.name if seat.accepted_at else None,
            "computer": seat.computer or None,
            "autopilot": seat.autopilot,
        }
        for seat in seats
    ]


def _decision(game: Game, state: engine.State | None, seats: list[Seat], viewer: Seat | None) -> dict | None:
    """The decision pending, and for the seat that makes it the decisions
    it may send (in the notation) with the version to send them with."""
    if state is None or game.status != Game.Status.RUNNING or engine.is_over(state):
        return None
    mover = engine.to_move(state)
    colour = next((seat.colour for seat in seats if seat.position == mover), None)
    decision: dict[str, Any] = {
        "kind": engine.decision_kind(state),
        "colour": colour,
        "version": game.decision_version,
        "deadline": _iso(game.deadline),
        "yours": viewer is not None and mover == viewer.position,
        "legal": [],
    }
    if decision["yours"]:
        decision["legal"] = [engine.format_action(action) for action in engine.legal_actions(state)]
    return decision


def _arrangement(game: Game, state: engine.State | None, viewer: Seat) -> dict:
    """Whether the seat may reorder its team now (out of turn), and its order."""
    if state is None or game.status != Game.Status.RUNNING or not engine.can_arrange(state, viewer.position):
        return {"allowed": False, "codes": []}
    return {"allowed": True, "codes": [state.ruleset.code_of(card) for card in state.displays[viewer.position]]}


def game_view(game: Game, viewer: Seat | None) -> dict:
    """The game as ``viewer`` may see it (a spectator when None)."""
    state = engine.state_from_json(game.state) if game.state is not None else None
    seats = game_seats(game)
    view = {
        "game": game_summary(game),
        "seats": _seats(seats),
        "observation": None if state is None else engine.observe(state, None if viewer is None else viewer.position),
        "decision": _decision(game, state, seats, viewer),
    }
    if viewer is not None:
        view["seat"] = {"position": viewer.position, "colour": viewer.colour, "name": viewer.name}
        view["arrange"] = _arrangement(game, state, viewer)
    return view


def history_page(game: Game, after: int) -> dict:
    """The log's public events after step ``after``, oldest first, each
    with a sentence per event in the active language."""
    records = list(
        ActionRecord.objects.filter(game_id=game.pk, seq__gt=max(after, 0))
        .exclude(events=[])
        .order_by("seq")
        .only("seq", "seat", "actor", "events", "created_at")[: HISTORY_PAGE + 1]
    )
    more = len(records) > HISTORY_PAGE
    records = records[:HISTORY_PAGE]
    seats = game_seats(game)
    colours = {seat.position: seat.colour for seat in seats}
    names = {seat.colour: seat.name for seat in seats}
    entries = [
        {
            "seq": record.seq,
            "at": _iso(record.created_at),
            "actor": record.actor,
            "colour": colours.get(record.seat),
            "events": record.events,
            "text": [text for text in (str(describe(event, names)) for event in record.events) if text],
        }
        for record in records
    ]
    return {"entries": entries, "more": more, "after": entries[-1]["seq"] if entries else max(after, 0)}
