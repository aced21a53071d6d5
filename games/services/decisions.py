"""Decisions: a player's, a deadline's, a standing order's or the
autopilot's, each applied under the version rule, then the emails it causes."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import engine, players
from games.models import ActionRecord, Game, Seat

from .enqueue import enqueue_on_commit
from .errors import NotYourTurn, RefusedAction, StaleDecision, engine_refusal
from .game_state import (
    Step,
    apply_with_chance,
    check_running,
    game_lock,
    game_lock_with_seats,
    load_state,
    ruleset_of,
    state_commit,
)
from .notices import notices_after_decision
from .orders import order_action
from .timing import computer_level

# A game where standing orders answer everything still ends: this many
# automatic steps per request, then the rest waits for the next decision.
ORDER_STEPS_MAX = 20000

MISSED_DEADLINES_FOR_AUTOPILOT = 3


def _apply_orders(game: Game, state: engine.State, seats: dict[int, Seat], version: int, records: list):
    """Let standing orders answer every decision they cover, at once. What
    they leave to a computer player (a computer seat's, or the autopilot's)
    is decided in a task, never in this request."""
    for _ in range(ORDER_STEPS_MAX):
        mover = engine.to_move(state)
        seat = None if mover is None else seats.get(mover)
        if mover is None or seat is None:
            break
        action = order_action(seat.standing_orders, state)
        if action is None:
            break
        step = Step(mover, action, ActionRecord.Actor.ORDER, ActionRecord.Source.SERVER)
        state, version = apply_with_chance(game, state, step, version, records)
    return state, version


def computer_actor(seat: Seat) -> str:
    return ActionRecord.Actor.COMPUTER if seat.computer else ActionRecord.Actor.AUTOPILOT


def _computer_turn_enqueue(game: Game, state: engine.State, seats: dict[int, Seat]) -> None:
    """After commit, a task lets the computer player decide if one is to move."""
    mover = engine.to_move(state)
    seat = None if mover is None else seats.get(mover)
    if seat is not None and not engine.is_over(state) and computer_level(seat, timezone.now()):
        enqueue_on_commit("games.computer_moves", game.pk)


def _pending(game_id: int, seen_version: int) -> tuple[Game, dict[int, Seat], engine.State, int | None]:
    """The game locked with its seats, its state and the seat to move, while
    ``seen_version`` is still its pending decision."""
    game, seats = game_lock_with_seats(game_id)
    # Stale first: a decision someone else made may also have ended the game.
    if seen_version != game.decision_version:
        raise StaleDecision()
    check_running(game)
    state = load_state(game)
    return game, seats, state, engine.to_move(state)


def decision_submit(
    *, seat: Seat, text: str, seen_version: int, source: str = ActionRecord.Source.WEB
) -> Game:
    """A player's decision in the notation (``bid 12``), for the decision
    their page showed (``seen_version`` is the game's decision_version then)."""
    with transaction.atomic():
        game, seats, state, mover = _pending(seat.game_id, seen_version)
        if mover != seat.position:
            raise NotYourTurn()
        try:
            action = engine.parse(text, state.ruleset)
        except engine.NotationError as error:
            raise engine_refusal(error) from None
        if isinstance(action, engine.Arrange):
            raise RefusedAction(gettext("arrange your team with its own form"))
        seat_back(seat=seats[seat.position])
        return _decide(game, seats, state, Step(seat.position, action, ActionRecord.Actor.PLAYER, source))


def notation_submit(*, seat: Seat, text: str, seen_version: int, source: str) -> Game:
    """Any decision in the notation, an arrangement included: a program has
    no separate form for it. An arrangement is out of turn, so the version
    it was sent with does not matter; for every other decision it does."""
    words = text.split()
    if words and words[0].lower() == "arrange":
        return arrange_submit(seat=seat, codes=words[1:], source=source)
    return decision_submit(seat=seat, text=text, seen_version=seen_version, source=source)


def seat_back(*, seat: Seat) -> None:
    """The player acted: the missed-deadline count restarts, and an autopilot
    that missed deadlines switched on is switched off again."""
    if seat.missed_deadlines == 0 and seat.autopilot_reason != "missed":
        return  # the usual case: nothing to undo, no query
    fields: dict[str, object] = {"missed_deadlines": 0}
    if seat.autopilot_reason == "missed":
        fields.update(autopilot=False, autopilot_reason="")
    Seat.objects.filter(pk=seat.pk).update(**fields)
    for name, value in fields.items():
        setattr(seat, name, value)


def deadline_expire(
    *,
    game_id: int,
    seen_version: int,
    source: str = ActionRecord.Source.TIMER,
    actor: str = ActionRecord.Actor.DEADLINE,
) -> Game:
    """The pending decision ``seen_version`` ran out of time: apply the seat's
    standing order if one covers it, else the computer player's decision for
    a seat one plays, else the engine's default
    (docs/rules-notes.md#defaults-when-a-deadline-passes)."""
    with transaction.atomic():
        game, seats, state, mover = _pending(game_id, seen_version)
        if mover is None:  # the game is over: there is no default to apply
            raise StaleDecision()
        seat = seats.get(mover)
        action = order_action(seat.standing_orders, state) if seat else None
        level = computer_level(seat, timezone.now()) if seat and action is None else None
        if seat is not None and level:
            # A computer player that missed its turn (its task was lost)
            # decides now, as it would have then.
            action, actor = players.choose(state, mover, level, random.Random()), computer_actor(seat)
        action = action or engine.default_action(state)
        if action is None:
            raise StaleDecision()
        if seat is not None and source == ActionRecord.Source.TIMER and not level:
            _count_missed(seat)
        return _decide(game, seats, state, Step(mover, action, actor, source))


def _count_missed(seat: Seat) -> None:
    """Three deadlines missed in a row put the seat on autopilot (and on the
    moderators' dashboard) until the player acts again."""
    missed = seat.missed_deadlines + 1
    fields: dict[str, object] = {"missed_deadlines": missed}
    if missed >= MISSED_DEADLINES_FOR_AUTOPILOT and not seat.autopilot:
        fields.update(autopilot=True, autopilot_reason="missed")
    Seat.objects.filter(pk=seat.pk).update(**fields)
    for name, value in fields.items():
        setattr(seat, name, value)


def _decide(
    game: Game, seats: dict[int, Seat], state: engine.State, step: Step | None, *, computer_turn: bool = True
) -> Game:
    """Apply ``step`` and what follows it, under the lock
    game_lock_with_seats took (``seats`` are the game's, read under it).
    ``computer_turn`` False: the caller is the computer players' own task,
    which goes on by itself."""
    seen = game.version
    records: list[ActionRecord] = []
    state, version = apply_with_chance(game, state, step, seen, records)
    state, version = _apply_orders(game, state, seats, version, records)
    state_commit(game, seen, state, records, version, decision_changed=True, seats=seats)
    notices_after_decision(game, state, seats, records)
    # What was logged, for the answer to the click (the die a roll showed)
    # without reading the log again.
    game.records_made = records  # type: ignore[attr-defined]  # on this object only, not a field
    if computer_turn:
        _computer_turn_enqueue(game, state, seats)
    return game


def computer_decision(*, game_id: int, seen_version: int, action: engine.Action) -> Game | None:
    """The computer player's decision for the pending decision
    ``seen_version``, chosen outside the lock; None if the seat to move is
    no longer a computer player's."""
    with transaction.atomic():
        game, seats, state, mover = _pending(game_id, seen_version)
        seat = None if mover is None else seats.get(mover)
        if mover is None or seat is None or not computer_level(seat, timezone.now()):
            return None
        step = Step(mover, action, computer_actor(seat), ActionRecord.Source.SERVER)
        return _decide(game, seats, state, step, computer_turn=False)


def orders_apply_now(*, game_id: int) -> Game:
    """After a seat changed its standing orders or went on autopilot: apply
    them (or the default, on autopilot) if they cover the pending decision."""
    with transaction.atomic():
        game, seats = game_lock_with_seats(game_id)
        if game.status != Game.Status.RUNNING:
            return game
        state = load_state(game)
        mover = engine.to_move(state)
        seat = None if mover is None else seats.get(mover)
        if seat is None:
            return game
        if order_action(seat.standing_orders, state) is None:
            _computer_turn_enqueue(game, state, seats)
            return game
        return _decide(game, seats, state, None)


def game_begin(game: Game, seats: list[Seat]) -> Game:
    """Set up the engine state and run chance up to the first decision.
    Call inside the transaction that accepted the last seat, with the game's
    seats read in it."""
    colours = [seat.colour for seat in seats if seat.colour]
    if len(colours) != len(seats):
        raise ValueError("a game begins once every seat has taken a colour")
    game.state = engine.state_to_json(engine.new_game(ruleset_of(game), colours))
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        state=game.state, status=game.status, started_at=game.started_at
    )
    for seat in seats:
        seat.game = game
    return _decide(game, {seat.position: seat for seat in seats}, load_state(game), None)


def arrange_submit(*, seat: Seat, codes: list[str], source: str = ActionRecord.Source.WEB) -> Game:
    """Reorder a seat's team. Out of turn, and it never moves the decision on."""
    with transaction.atomic():
        game = game_lock(seat.game_id)
        check_running(game)
        state = load_state(game)
        try:
            action = engine.parse("arrange " + " ".join(codes), state.ruleset)
        except engine.NotationError as error:
            raise engine_refusal(error) from None
        current = [state.ruleset.code_of(card) for card in state.displays[seat.position]]
        if (
            isinstance(action, engine.Arrange)
            and engine.can_arrange(state, seat.position)
            and list(action.codes) == current
        ):
            # The order it already has (a form sent back unchanged): nothing
            # to record, and the game's version stays as it is.
            game.records_made = []  # type: ignore[attr-defined]  # on this object only, not a field
            return game
        seen = game.version
        records: list[ActionRecord] = []
        step = Step(seat.position, action, ActionRecord.Actor.PLAYER, source)
        state, version = apply_with_chance(game, state, step, seen, records)
        state_commit(game, seen, state, records, version, decision_changed=False)
        game.records_made = records  # type: ignore[attr-defined]  # as _decide does
        return game

