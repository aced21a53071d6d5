"""The stored game under the version rule (docs/architecture.md#the-version-rule):
lock its row, read its state, apply an action and the chance outcomes that
follow from the seed, and write it back only if nobody else did first."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from games import engine
from games.engine.events import events as engine_events
from games.models import ActionRecord, Game, Seat
from games.randomness import pick_index

from .errors import GameNotRunning, StaleDecision, engine_refusal
from .seats import game_seats
from .statements import game_locked
from .timing import deadline_for, reminder_lead


@dataclass
class Step:
    seat: int
    action: engine.Action
    actor: str
    source: str


def load_state(game: Game) -> engine.State:
    if game.state is None:
        raise ValueError(f"game {game.pk} has no state: it has not begun")
    return engine.state_from_json(game.state)


def ruleset_of(game: Game) -> engine.Ruleset:
    return engine.Ruleset.from_json(game.ruleset)


def game_lock(game_id: int) -> Game:
    """The game row, locked first on PostgreSQL: every decision then takes its
    locks in one order (game, then seats), so two cannot deadlock. The version
    check and the compare-and-set stay the rule; on SQLite the IMMEDIATE
    transaction already serialises writers."""
    # A hand-written statement (games.services.statements), as the seats'.
    game = game_locked(game_id)
    if game is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return game


def game_lock_with_seats(game_id: int) -> tuple[Game, dict[int, Seat]]:
    """The game row locked (game_lock), then its seats by position: a
    decision needs both, read under the lock, and each read once."""
    game = game_lock(game_id)
    seats = game_seats(game)
    # Kept on the game the decision returns, so what the caller says of it
    # afterwards ("you pushed Bruno back") needs no second read of the seats.
    game.seats_at_lock = seats  # type: ignore[attr-defined]  # on this object only, not a field
    return game, {seat.position: seat for seat in seats}


def check_running(game: Game) -> None:
    if game.status != Game.Status.RUNNING:
        raise GameNotRunning()


def apply_with_chance(game: Game, state: engine.State, first: Step | None, version: int, records: list):
    """Apply ``first`` (if any) and then every chance outcome that follows,
    drawn from the game's seed; appends log records, returns state and version."""
    step = first
    while True:
        if step is None:
            if engine.to_move(state) != engine.CHANCE:
                return state, version
            outcomes = engine.chance_outcomes(state)
            # A chance step is numbered by the log entry it becomes.
            index = pick_index(game.seed, game.public_id, version + 1, len(outcomes))
            step = Step(engine.CHANCE, outcomes[index], ActionRecord.Actor.CHANCE, ActionRecord.Source.SERVER)
        before = state
        try:
            state = engine.apply(before, step.seat, step.action)
        except engine.EngineError as error:
            raise engine_refusal(error) from None
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


def state_commit(
    game: Game, seen_version: int, state: engine.State, records, new_version: int, decision_changed: bool, seats=None
):
    """Compare-and-set the game row on ``seen_version``; zero rows means someone
    else acted first and this whole transaction is rolled back."""
    now = timezone.now()
    fields = {"state": engine.state_to_json(state), "version": new_version}
    mover = engine.to_move(state)
    if decision_changed:
        fields["decision_version"] = new_version
        if mover is None:
            fields.update(deadline=None, reminder_at=None)
        else:
            deadline = deadline_for(game, (seats or {}).get(mover), now)
            fields.update(deadline=deadline, reminder_at=deadline - reminder_lead(game.decision_hours))
    if engine.is_over(state):
        fields.update(status=Game.Status.OVER, ended_at=now, deadline=None, reminder_at=None)
    if not Game.objects.filter(pk=game.pk, version=seen_version).update(**fields):
        raise StaleDecision()
    ActionRecord.objects.bulk_create(records)
    for name, value in fields.items():
        setattr(game, name, value)
