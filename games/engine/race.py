"""Races: rolling, moving, the Devil's push, the pond, ranking and prizes;
then the break: removal and refill."""

from __future__ import annotations

from typing import TypedDict

from .errors import IllegalAction, gettext_noop
from .ruleset import BearerKind, Ruleset
from .state import (
    AWAIT_DIE,
    AWAIT_PUSH,
    AWAIT_ROLL,
    FINISHED,
    HOLE,
    OVER,
    POND,
    RACE,
    RACE_DONE,
    RACING,
    REFILL,
    REMOVAL,
    Awaiting,
    ChairStatus,
    DrawTarget,
    Race,
    RaceResult,
    State,
    clockwise_from,
)


class _RaceChanges(TypedDict, total=False):
    """Race fields that one turn changes, for ``Race._replace``."""

    positions: tuple[int, ...]
    status: tuple[ChairStatus, ...]
    arrivals: tuple[int, ...]
    fallen: tuple[int, ...]
    turn: int
    rolls: int
    awaiting: Awaiting
    last_roll: tuple[int, int, int]


def begin_race(state: State, number: int) -> State:
    n = state.players
    assert state.start_player is not None  # drawn before the first auction
    first = (state.start_player + number - 1) % n
    # Typed so that the checker keeps the literal through the repetition.
    racing: tuple[ChairStatus] = (RACING,)
    race = Race(
        number=number,
        first=first,
        positions=(state.ruleset.start_space,) * n,
        status=racing * n,
        arrivals=(),
        fallen=(),
        turn=first,
        rolls=0,
        awaiting=AWAIT_ROLL,
        last_roll=None,
    )
    return state._replace(phase=RACE, race=race, last_placed=None, break_auctions=0)


def roll(state: State) -> State:
    assert state.race is not None  # a race is on
    race = state.race._replace(awaiting=AWAIT_DIE)
    if race.rolls == 0 and any(state.arrangeable):
        # The first roll of a race ends the time for arranging teams.
        return state._replace(race=race, arrangeable=(False,) * state.players)
    return state._replace(race=race)


def die(state: State, face: int) -> State:
    ruleset = state.ruleset
    if not 1 <= face <= ruleset.die_faces:
        raise IllegalAction(gettext_noop("the die shows 1 to %(faces)d"), faces=ruleset.die_faces)
    race = state.race
    assert race is not None  # a race is on
    seat = race.turn
    card = state.displays[seat][face - 1]
    bearer: BearerKind = ruleset.kind_of(card)
    moved = _move(state, race, seat, bearer.move)
    moved["rolls"] = race.rolls + 1
    moved["last_roll"] = (seat, face, card)
    status = moved["status"]
    if bearer.push and status.count(RACING) > (status[seat] == RACING):
        # Another chair is still racing: the Devil's push is asked for.
        moved["awaiting"] = AWAIT_PUSH
        return state._replace(race=race._replace(**moved))
    return _end_turn(state, race, moved)


def push(state: State, target: int | None) -> State:
    race = state.race
    assert race is not None  # a race is on
    seat = race.turn
    if target is None:
        return _end_turn(state, race, {})
    if target == seat:
        raise IllegalAction(gettext_noop("the Devil pushes another chair, not your own"))
    if race.status[target] != RACING:
        raise IllegalAction(gettext_noop("only a chair still racing can be pushed"))
    assert race.last_roll is not None  # the push follows the Devil's roll
    bearer = state.ruleset.kind_of(race.last_roll[2])
    return _end_turn(state, race, _move(state, race, target, -bearer.push))


def landing(ruleset: Ruleset, race_number: int, start: int, steps: int) -> tuple[int, ChairStatus]:
    """Where a chair on space ``start`` lands after moving ``steps`` spaces
    (negative: back) in race ``race_number``, and its status then: a chair
    that reaches the finish stops on it; one that goes back into the pond or
    behind the lowest space falls."""
    end = start + steps
    finish = ruleset.finish_spaces[race_number - 1]
    if steps > 0 and end >= finish:
        return finish, FINISHED
    if steps < 0 and (end < ruleset.lowest_space or end in ruleset.pond_spaces):
        return end, POND
    return end, RACING


def _move(state: State, race: Race, seat: int, steps: int) -> _RaceChanges:
    """The race fields that change when ``seat``'s chair moves ``steps``."""
    position, status = landing(state.ruleset, race.number, race.positions[seat], steps)
    arrivals, fallen = race.arrivals, race.fallen
    if status == FINISHED:
        arrivals = arrivals + (seat,)
    elif status == POND:
        fallen = fallen + (seat,)
    return {
        "positions": race.positions[:seat] + (position,) + race.positions[seat + 1 :],
        "status": race.status[:seat] + (status,) + race.status[seat + 1 :],
        "arrivals": arrivals,
        "fallen": fallen,
    }


def _end_turn(state: State, race: Race, changes: _RaceChanges) -> State:
    """Pass the turn on, or end the race; ``changes`` are this turn's race fields."""
    status = changes.get("status", race.status)
    if RACING not in status or changes.get("rolls", race.rolls) >= state.ruleset.roll_cap:
        return _end_race(state._replace(race=race._replace(**changes)))
    n = len(status)
    turn = race.turn
    while True:
        turn = (turn + 1) % n
        if status[turn] == RACING:
            changes["turn"] = turn
            changes["awaiting"] = AWAIT_ROLL
            return state._replace(race=race._replace(**changes))


def ranking(race: Race, players: int) -> tuple[int, ...]:
    turn_order = clockwise_from(race.first, players)
    on_track = sorted(
        (s for s in turn_order if race.status[s] == RACING),
        key=lambda s: (-race.positions[s], turn_order.index(s)),
    )
    return race.arrivals + tuple(on_track) + race.fallen[::-1]


def _end_race(state: State) -> State:
    assert state.race is not None  # a race is on
    race = state.race._replace(awaiting=RACE_DONE)
    order = ranking(race, state.players)
    prize_row = state.ruleset.prizes[race.number - 1]
    gold = list(state.gold)
    paid = []
    for place, seat in enumerate(order):
        prize = prize_row[place] if place < len(prize_row) and race.status[seat] != POND else 0
        gold[seat] += prize
        paid.append(prize)
    result = RaceResult(race.number, order, tuple(paid), race.fallen, tuple(gold))
    state = state._replace(race=race, gold=tuple(gold), results=state.results + (result,))
    if race.number == state.ruleset.races:
        return state._replace(phase=OVER)
    return state._replace(phase=REMOVAL, last_placed=order[-1])


def remove(state: State, slots: dict[int, int]) -> State:
    """``slots``: seat -> 0-based slot, one for every display."""
    size = state.ruleset.display_size
    if set(slots) != set(range(state.players)):
        raise IllegalAction(gettext_noop("name one card from every display, your own included"))
    if any(not 0 <= slot < size for slot in slots.values()):
        raise IllegalAction(gettext_noop("slots are numbered 1 to %(size)d"), size=size)
    displays = tuple(
        display[: slots[s]] + (HOLE,) + display[slots[s] + 1 :]
        for s, display in enumerate(state.displays)
    )
    removed = tuple(display[slots[s]] for s, display in enumerate(state.displays))
    assert state.last_placed is not None  # set when the race ended
    draws: tuple[DrawTarget, ...] = tuple(
        ("slot", s, slots[s]) for s in clockwise_from(state.last_placed, state.players)
    )
    return state._replace(
        phase=REFILL,
        displays=displays,
        discard=tuple(sorted(state.discard + removed)),
        draws=draws,
    )
