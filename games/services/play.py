"""Applying decisions to stored games under the version rule (DESIGN.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import engine
from games.engine.events import events as engine_events
from games.models import ActionRecord, Game, Seat
from games.randomness import pick_index

from .errors import GameNotRunning, NotYourTurn, RefusedAction, StaleDecision
from .notify import notification_queue
from .links import seat_url


@dataclass
class Step:
    seat: int
    action: engine.Action
    actor: str
    source: str


def load_state(game: Game) -> engine.State:
    return engine.state_from_json(game.state)


def ruleset_of(game: Game) -> engine.Ruleset:
    return engine.Ruleset.from_json(game.ruleset)


def _apply_with_chance(game: Game, state: engine.State, first: Step | None, version: int):
    """Apply ``first`` (if any) and then every chance outcome that follows,
    drawn from the game's seed; returns the new state, log records and version."""
    records = []
    step = first
    while True:
        if step is None:
            if engine.to_move(state) != engine.CHANCE:
                return state, records, version
            outcomes = engine.chance_outcomes(state)
            # A chance step is numbered by the log entry it becomes.
            index = pick_index(game.seed, game.public_id, version + 1, len(outcomes))
            step = Step(engine.CHANCE, outcomes[index], ActionRecord.Actor.CHANCE, ActionRecord.Source.SERVER)
        before = state
        try:
            state = engine.apply(before, step.seat, step.action)
        except engine.EngineError as error:
            raise RefusedAction(str(error)) from None
        version += 1
        records.append(
            ActionRecord(
                game=game,
                seq=version,
                seat=step.seat,
                actor=step.actor,
                source=step.source,
                action=engine.format_action(step.action),
                events=engine_events(before, step.seat, step.action, state),
            )
        )
        step = None


def _commit(game: Game, seen_version: int, state: engine.State, records, new_version: int, decision_changed: bool):
    """Compare-and-set the game row on ``seen_version``; zero rows means someone
    else acted first and this whole transaction is rolled back."""
    now = timezone.now()
    fields = {"state": engine.state_to_json(state), "version": new_version}
    mover = engine.to_move(state)
    if decision_changed:
        fields["decision_version"] = new_version
        fields["deadline"] = now + timedelta(hours=game.decision_hours) if mover is not None else None
    if engine.is_over(state):
        fields.update(status=Game.Status.OVER, ended_at=now, deadline=None)
    updated = Game.objects.filter(pk=game.pk, version=seen_version).update(**fields)
    if not updated:
        raise StaleDecision()
    ActionRecord.objects.bulk_create(records)
    for name, value in fields.items():
        setattr(game, name, value)


def decision_submit(
    *, seat: Seat, text: str, seen_version: int, source: str = ActionRecord.Source.WEB
) -> Game:
    """A player's decision in the notation (``bid 12``), for the decision
    their page showed (``seen_version`` is the game's decision_version then)."""
    with transaction.atomic():
        game = Game.objects.get(pk=seat.game_id)
        _check_running(game)
        if seen_version != game.decision_version:
            raise StaleDecision()
        state = load_state(game)
        if engine.to_move(state) != seat.position:
            raise NotYourTurn()
        try:
            action = engine.parse(text, state.ruleset)
        except engine.NotationError as error:
            raise RefusedAction(str(error)) from None
        if isinstance(action, engine.Arrange):
            raise RefusedAction("arrange your team with its own form")
        return _decide(game, state, Step(seat.position, action, ActionRecord.Actor.PLAYER, source))


def deadline_expire(*, game_id: int, seen_version: int, source: str = ActionRecord.Source.TIMER) -> Game:
    """Apply the default decision to the pending decision ``seen_version``."""
    with transaction.atomic():
        game = Game.objects.get(pk=game_id)
        _check_running(game)
        if seen_version != game.decision_version:
            raise StaleDecision()
        state = load_state(game)
        action = engine.default_action(state)
        if action is None:
            raise StaleDecision()
        step = Step(engine.to_move(state), action, ActionRecord.Actor.DEADLINE, source)
        return _decide(game, state, step)


def _decide(game: Game, state: engine.State, step: Step | None) -> Game:
    seen = game.version
    state, records, version = _apply_with_chance(game, state, step, seen)
    _commit(game, seen, state, records, version, decision_changed=True)
    _notify_after(game, state)
    return game


def game_begin(game: Game, colours: list[str]) -> Game:
    """Set up the engine state and run chance up to the first decision.
    Call inside the transaction that accepted the last seat."""
    game.state = engine.state_to_json(engine.new_game(ruleset_of(game), colours))
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        state=game.state, status=game.status, started_at=game.started_at
    )
    return _decide(game, load_state(game), None)


def arrange_submit(*, seat: Seat, codes: list[str], source: str = ActionRecord.Source.WEB) -> Game:
    """Reorder a seat's team. Out of turn, and it never moves the decision on."""
    with transaction.atomic():
        game = Game.objects.get(pk=seat.game_id)
        _check_running(game)
        state = load_state(game)
        try:
            action = engine.parse("arrange " + " ".join(codes), state.ruleset)
        except engine.NotationError as error:
            raise RefusedAction(str(error)) from None
        seen = game.version
        step = Step(seat.position, action, ActionRecord.Actor.PLAYER, source)
        state, records, version = _apply_with_chance(game, state, step, seen)
        _commit(game, seen, state, records, version, decision_changed=False)
        return game


def _check_running(game: Game) -> None:
    if game.status != Game.Status.RUNNING:
        raise GameNotRunning()


def _notify_after(game: Game, state: engine.State) -> None:
    """Tell the seat now to decide; at the end, tell everyone the result."""
    seats = list(game.seats.all())
    if engine.is_over(state):
        for seat in seats:
            notification_queue(
                game=game, seat=seat, kind="over", version=game.version, template="game_over",
                context={"link": seat_url(seat), "observation": engine.observe(state, seat.position)},
            )
        return
    mover = engine.to_move(state)
    seat = next((s for s in seats if s.position == mover), None)
    if seat is not None:
        notification_queue(
            game=game, seat=seat, kind="turn", version=game.version, template="turn",
            context={
                "link": seat_url(seat),
                "decision": engine.decision_kind(state),
                "deadline": game.deadline,
                "observation": engine.observe(state, seat.position),
            },
        )
