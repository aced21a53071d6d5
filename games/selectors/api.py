"""What the JSON API answers, as JSON-safe data built from the engine's
observation for the viewer (a seat, or nobody for a spectator) and the
public events of the action log; the shapes are the ones
games/web/openapi.py documents."""

from __future__ import annotations

from typing import Any, get_args

from django.utils import translation

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


def _entry(record: ActionRecord, colours: dict[int, str | None], names: dict) -> dict:
    return {
        "seq": record.seq,
        "at": _iso(record.created_at),
        "actor": record.actor,
        "source": record.source,
        "colour": colours.get(record.seat),
        # A seat's decision is public (bids, rolls, pushes, removals and
        # arrangements all show on the board); a chance step's may not be
        # (a card drawn face down), so its events alone say what it did.
        "decision": None if record.seat == engine.CHANCE else record.action,
        "events": record.events,
        "text": [text for text in (str(describe(event, names)) for event in record.events) if text],
    }


_ENTRY_FIELDS = ("seq", "seat", "actor", "source", "action", "events", "created_at")


def history_page(game: Game, after: int) -> dict:
    """The log after version ``after``, oldest first: every decision a seat
    made (whoever made it for the seat: the player, a standing order, the
    deadline, the autopilot, a computer player, a moderator), and every
    chance step with a public event, each with a sentence per event in the
    active language."""
    records = list(
        ActionRecord.objects.filter(game_id=game.pk, seq__gt=max(after, 0))
        # A chance step with nothing public (a card dealt face down) is left out.
        .exclude(events=[], seat=engine.CHANCE)
        .order_by("seq")
        .only(*_ENTRY_FIELDS)[: HISTORY_PAGE + 1]
    )
    more = len(records) > HISTORY_PAGE
    records = records[:HISTORY_PAGE]
    seats = game_seats(game)
    colours = {seat.position: seat.colour for seat in seats}
    names = {seat.colour: seat.name for seat in seats}
    entries = [_entry(record, colours, names) for record in records]
    return {"entries": entries, "more": more, "after": entries[-1]["seq"] if entries else max(after, 0)}


def stale_details(game_id: int, viewer_id: int, seen_version: int) -> dict:
    """For a decision refused as stale: the seat's decision that answered
    the decision pending at ``seen_version`` (None if none did: the version
    was never a pending decision's, or the game ended without one), and the
    seat's view as the game stands now."""
    viewer = Seat.objects.select_related("game").get(pk=viewer_id)
    game = viewer.game
    seats = game_seats(game)
    record = (
        ActionRecord.objects.filter(game_id=game_id, seq__gt=seen_version)
        .exclude(seat=engine.CHANCE)
        # An arrangement is out of turn: it answers no pending decision.
        .exclude(action__startswith="arrange")
        .order_by("seq")
        .only(*_ENTRY_FIELDS)
        .first()
    )
    colours = {seat.position: seat.colour for seat in seats}
    names = {seat.colour: seat.name for seat in seats}
    return {
        "decided_by": None if record is None else _entry(record, colours, names),
        "current": game_view(game, viewer),
    }


def vocabulary() -> dict[str, list]:
    """The engine's own names the API's document lists as enums."""
    rulesets = list(engine.RULESETS.values())
    return {
        "phases": list(get_args(engine.Phase)),
        "decision_kinds": list(get_args(engine.DecisionKind)),
        "auction_kinds": list(get_args(engine.AuctionKind)),
        "chair_statuses": list(get_args(engine.ChairStatus)),
        "awaiting": list(get_args(engine.Awaiting)),
        "rulesets": [ruleset.name for ruleset in rulesets],
        "colours": list(dict.fromkeys(colour for ruleset in rulesets for colour in ruleset.colours)),
        "codes": list(dict.fromkeys(bearer.code for ruleset in rulesets for bearer in ruleset.bearers)),
        "actors": list(ActionRecord.Actor.values),
        "sources": list(ActionRecord.Source.values),
        "game_statuses": list(Game.Status.values),
    }


def document_examples() -> dict[str, Any]:
    """Observations made by the engine itself for the document's examples
    (a seat's view in the first auction and in the first race of a game
    played by the deadline defaults), so an example can never show a shape
    the API does not answer."""
    state = engine.new_game(engine.CLASSIC, ["red", "yellow", "green", "blue"])
    examples: dict[str, Any] = {}
    for _step in range(2000):
        mover = engine.to_move(state)
        if mover is None:
            break
        if mover != engine.CHANCE and "auction" not in examples and state.auction is not None:
            examples["auction"] = engine.observe(state, mover)
            examples["legal"] = [engine.format_action(action) for action in engine.legal_actions(state)]
            examples["colour"] = state.colours[mover]
        if mover != engine.CHANCE and state.race is not None and state.race.awaiting == "roll":
            examples["race"] = engine.observe(state, mover)
            break
        action = engine.chance_outcomes(state)[0] if mover == engine.CHANCE else engine.default_action(state)
        assert action is not None  # a seat to move always has a default
        state = engine.apply(state, mover, action)
    return examples


def seat_view_now(seat_id: int) -> dict:
    """The seat's view, its game read afresh (after a wait)."""
    viewer = Seat.objects.select_related("game").get(pk=seat_id)
    return game_view(viewer.game, viewer)


def stream_event(seat_id: int, after: int | None, language: str) -> dict:
    """One event of the seat's stream: the game's version, the seat's view,
    and the history entries after version ``after`` (none without one: the
    history endpoint holds what came before), in the seat's language."""
    viewer = Seat.objects.select_related("game").get(pk=seat_id)
    with translation.override(language):
        page: dict[str, Any] = {"entries": [], "more": False} if after is None else history_page(viewer.game, after)
        version = viewer.game.version
        return {
            "version": version,
            "view": game_view(viewer.game, viewer),
            # A step committed between the two reads is the next event's.
            "entries": [entry for entry in page["entries"] if entry["seq"] <= version],
            "more": page["more"],
        }
