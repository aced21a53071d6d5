"""What a confirmation page (a decision offered by a turn email) shows: the
decision with what it is about, or why it can no longer be made. Reads only:
the page is opened by mail scanners too."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games import engine
from games.models import Game, Seat
from games.narrate import colour_name
from games.services.seats import game_seats

from .seat import decisions_since, game_state


def _problem(why: str, message: str = "", **more: Any) -> dict[str, Any]:
    return {"problem": why, "message": message, **more}


def decision_preview(seat: Seat, text: str, version: int) -> dict[str, Any]:
    """The decision ``text`` (in the engine's notation) that a link made at
    game version ``version`` offers ``seat``. Either the facts the page
    words it from, or ``problem``: "stale" (the game moved on, with what
    happened since), "not_running", "not_yours" or "illegal" (with the
    engine's reason, in the active language)."""
    game = seat.game
    names = {s.colour: s.name for s in game_seats(game)}
    if game.state is None or version > game.version:
        # No email was ever written at a version the game has not reached.
        return _problem("forged")
    if version != game.decision_version:
        happened = decisions_since(game, version, names, viewer=seat)
        return _problem("stale", happened=happened, names=names)
    if game.status != Game.Status.RUNNING:
        return _problem("not_running", status=game.status)
    state = game_state(game)
    if engine.to_move(state) != seat.position:
        return _problem("not_yours")
    try:
        action = engine.parse(text, state.ruleset)
        after = engine.apply(state, seat.position, action)
    except engine.EngineError as error:
        return _problem("illegal", error.translated(gettext, colour_name))
    observation = engine.observe(state, seat.position)
    me = observation["players"][seat.position]
    preview: dict[str, Any] = {
        "problem": None,
        "kind": type(action).__name__.lower(),
        "observation": observation,
        "names": names,
        "me": me,
        "version": version,
    }
    if isinstance(action, engine.Bid):
        preview["amount"] = action.amount
    if isinstance(action, engine.Push):
        preview["target"] = action.colour or "none"
        if action.colour is not None:
            preview["push"] = _push(state, after, action.colour)
    if observation["race"] is not None:
        preview["my_chair"] = observation["race"]["chairs"][me["colour"]]
    return preview


def _push(before: engine.State, after: engine.State, colour: str) -> dict[str, Any]:
    """Where the pushed chair is and where the push puts it."""
    target = before.seat_of(colour)
    assert before.race is not None and after.race is not None  # a push is asked for only in a race
    return {
        "colour": colour,
        "from": before.race.positions[target],
        "to": after.race.positions[target],
        "pond": after.race.status[target] == "pond",
    }
