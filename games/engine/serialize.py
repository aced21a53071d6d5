"""States and logs to and from JSON; replaying a log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from .actions import Action, format_action, parse
from .rules import apply
from .ruleset import Ruleset
from .state import Auction, Race, RaceResult, State, new_game


def state_to_json(state: State) -> dict[str, object]:
    data = state._asdict()
    data["ruleset"] = state.ruleset.to_json()
    data["auction"] = None if state.auction is None else state.auction._asdict()
    data["race"] = None if state.race is None else state.race._asdict()
    data["results"] = [r._asdict() for r in state.results]
    # _lists gives a dict back for a dict.
    return cast("dict[str, object]", _lists(data))


def _lists(value: object) -> object:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_lists(v) for v in value]
    return value


# Any: the result is whatever the JSON held, passed on to NamedTuple
# constructors that the checker cannot hold it against.
def _tuples(value: object) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


# Any: the data is parsed JSON, whose shape only state_to_json vouches for.
def state_from_json(data: dict[str, Any]) -> State:
    fields = {k: _tuples(v) for k, v in data.items()}
    fields["ruleset"] = Ruleset.from_json(data["ruleset"])
    if data["auction"] is not None:
        fields["auction"] = Auction(**{k: _tuples(v) for k, v in data["auction"].items()})
    if data["race"] is not None:
        fields["race"] = Race(**{k: _tuples(v) for k, v in data["race"].items()})
    fields["results"] = tuple(
        RaceResult(**{k: _tuples(v) for k, v in r.items()}) for r in data["results"]
    )
    return State(**fields)


LogEntry = tuple[int, Action]


def log_to_json(log: Iterable[LogEntry]) -> list[list[int | str]]:
    return [[seat, format_action(action)] for seat, action in log]


# Any: the data is parsed JSON, [seat, text] pairs if it is what log_to_json wrote.
def log_from_json(data: list[Any], ruleset: Ruleset) -> list[LogEntry]:
    return [(seat, parse(text, ruleset)) for seat, text in data]


def replay(
    ruleset: Ruleset, colours: tuple[str, ...] | list[str], log: Iterable[LogEntry]
) -> State:
    state = new_game(ruleset, colours)
    for seat, action in log:
        state = apply(state, seat, action)
    return state
