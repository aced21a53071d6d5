"""Applying decisions to stored games under the version rule (DESIGN.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import engine
from games.engine.events import events as engine_events
from games.models import ActionRecord, Game, Notification, Seat
from games.randomness import pick_index

from .errors import GameNotRunning, NotYourTurn, RefusedAction, StaleDecision
from .links import seat_url
from .notify import notification_queue
from .orders import order_action
from games.narrate import describe
from games.selectors import board_text

# A game where standing orders answer everything still ends: this many
# automatic steps per request, then the rest waits for the next decision.
ORDER_STEPS_MAX = 20000


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


def reminder_lead(decision_hours: int) -> timedelta:
    """How long before a deadline the reminder goes: an hour a day of decision
    time, at least 15 minutes (1 h before a 24 h deadline, 15 min before 1 h)."""
    return max(timedelta(minutes=15), timedelta(hours=decision_hours) / 24)


def _apply_with_chance(game: Game, state: engine.State, first: Step | None, version: int, records: list):
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
            raise RefusedAction(error.translated(gettext)) from None
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


def _apply_orders(game: Game, state: engine.State, seats: dict[int, Seat], version: int, records: list):
    """Let standing orders answer every decision they cover, at once; a seat
    on autopilot gets the default for everything else."""
    now = timezone.now()
    for _ in range(ORDER_STEPS_MAX):
        mover = engine.to_move(state)
        seat = seats.get(mover)
        if seat is None:
            break
        action = order_action(seat.standing_orders, state)
        actor = ActionRecord.Actor.ORDER
        if action is None and on_autopilot(seat, now):
            action, actor = engine.default_action(state), ActionRecord.Actor.AUTOPILOT
        if action is None:
            break
        step = Step(mover, action, actor, ActionRecord.Source.SERVER)
        state, version = _apply_with_chance(game, state, step, version, records)
    return state, version


MISSED_DEADLINES_FOR_AUTOPILOT = 3


def on_autopilot(seat: Seat, now) -> bool:
    """Autopilot, set by a moderator or by missed deadlines, or an absence
    during which the player asked the autopilot to play."""
    if seat.autopilot:
        return True
    return any(
        a.mode == "autopilot" and a.starts_at <= now < a.ends_at for a in _absences(seat)
    )


def _absences(seat: Seat) -> list:
    # Loaded once per seat object per request.
    cached = getattr(seat, "_absences_cache", None)
    if cached is None:
        cached = list(seat.absences.all())
        seat._absences_cache = cached
    return cached


def _deadline_for(game: Game, seat: Seat | None, now):
    """The decision time from now, pushed past any absence of the seat's
    that covers it (an absent player's decision waits for their return)."""
    deadline = now + timedelta(hours=game.decision_hours)
    if seat is None:
        return deadline
    for absence in _absences(seat):
        if absence.mode == "extend" and absence.starts_at <= deadline and absence.ends_at > now:
            deadline = max(deadline, absence.ends_at + timedelta(hours=game.decision_hours))
    return deadline


def _commit(game: Game, seen_version: int, state: engine.State, records, new_version: int, decision_changed: bool, seats=None):
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
            deadline = _deadline_for(game, (seats or {}).get(mover), now)
            fields.update(deadline=deadline, reminder_at=deadline - reminder_lead(game.decision_hours))
    if engine.is_over(state):
        fields.update(status=Game.Status.OVER, ended_at=now, deadline=None, reminder_at=None)
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
        game = _game_for_update(seat.game_id)
        # Stale first: a decision someone else made may also have ended the game.
        if seen_version != game.decision_version:
            raise StaleDecision()
        _check_running(game)
        state = load_state(game)
        if engine.to_move(state) != seat.position:
            raise NotYourTurn()
        try:
            action = engine.parse(text, state.ruleset)
        except engine.NotationError as error:
            raise RefusedAction(error.translated(gettext)) from None
        if isinstance(action, engine.Arrange):
            raise RefusedAction(gettext("arrange your team with its own form"))
        seat_back(seat=seat)
        return _decide(game, state, Step(seat.position, action, ActionRecord.Actor.PLAYER, source))


def seat_back(*, seat: Seat) -> None:
    """The player acted: the missed-deadline count restarts, and an autopilot
    that missed deadlines switched on is switched off again."""
    if seat.missed_deadlines == 0 and seat.autopilot_reason != "missed":
        return  # the usual case: nothing to undo, no query
    fields = {"missed_deadlines": 0}
    if seat.autopilot_reason == "missed":
        fields.update(autopilot=False, autopilot_reason="")
    Seat.objects.filter(pk=seat.pk).update(**fields)


def deadline_expire(
    *,
    game_id: int,
    seen_version: int,
    source: str = ActionRecord.Source.TIMER,
    actor: str = ActionRecord.Actor.DEADLINE,
) -> Game:
    """The pending decision ``seen_version`` ran out of time: apply the seat's
    standing order if one covers it, else the default from RULES.md."""
    with transaction.atomic():
        game = _game_for_update(game_id)
        if seen_version != game.decision_version:
            raise StaleDecision()
        _check_running(game)
        state = load_state(game)
        mover = engine.to_move(state)
        seat = Seat.objects.filter(game=game, position=mover).first()
        action = order_action(seat.standing_orders, state) if seat else None
        action = action or engine.default_action(state)
        if action is None:
            raise StaleDecision()
        if seat is not None and source == ActionRecord.Source.TIMER:
            _count_missed(seat)
        return _decide(game, state, Step(mover, action, actor, source))


def _count_missed(seat: Seat) -> None:
    """Three deadlines missed in a row put the seat on autopilot (and on the
    moderators' dashboard) until the player acts again."""
    missed = seat.missed_deadlines + 1
    fields = {"missed_deadlines": missed}
    if missed >= MISSED_DEADLINES_FOR_AUTOPILOT and not seat.autopilot:
        fields.update(autopilot=True, autopilot_reason="missed")
    Seat.objects.filter(pk=seat.pk).update(**fields)


def _decide(game: Game, state: engine.State, step: Step | None) -> Game:
    seen = game.version
    seats = {
        seat.position: seat
        for seat in Seat.objects.filter(game=game).select_related("game").prefetch_related("absences")
    }
    records: list[ActionRecord] = []
    state, version = _apply_with_chance(game, state, step, seen, records)
    state, version = _apply_orders(game, state, seats, version, records)
    _commit(game, seen, state, records, version, decision_changed=True, seats=seats)
    _remember_decisions(game, records, seats)
    _notify_after(game, state, seats, records)
    return game


def orders_apply_now(*, game_id: int) -> Game:
    """After a seat changed its standing orders or went on autopilot: apply
    them (or the default, on autopilot) if they cover the pending decision."""
    with transaction.atomic():
        game = _game_for_update(game_id)
        if game.status != Game.Status.RUNNING:
            return game
        state = load_state(game)
        mover = engine.to_move(state)
        seat = Seat.objects.filter(game=game, position=mover).first()
        if seat is None or (
            order_action(seat.standing_orders, state) is None and not on_autopilot(seat, timezone.now())
        ):
            return game
        return _decide(game, state, None)


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
        game = _game_for_update(seat.game_id)
        _check_running(game)
        state = load_state(game)
        try:
            action = engine.parse("arrange " + " ".join(codes), state.ruleset)
        except engine.NotationError as error:
            raise RefusedAction(error.translated(gettext)) from None
        seen = game.version
        records: list[ActionRecord] = []
        step = Step(seat.position, action, ActionRecord.Actor.PLAYER, source)
        state, version = _apply_with_chance(game, state, step, seen, records)
        _commit(game, seen, state, records, version, decision_changed=False)
        return game


def reminder_send(*, game_id: int, seen_version: int) -> int:
    """Remind the seat to move, once per deadline; 1 if a reminder was queued."""
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id, decision_version=seen_version).first()
        if game is None or game.reminder_at is None:
            return 0
        claimed = Game.objects.filter(
            pk=game_id, decision_version=seen_version, reminder_at=game.reminder_at
        ).update(reminder_at=None)
        if not claimed or game.status != Game.Status.RUNNING:
            return 0
        state = load_state(game)
        seat = Seat.objects.select_related("game").filter(game=game, position=engine.to_move(state)).first()
        if seat is None:
            return 0
        # A moved deadline is reminded of again: a second reminder for the
        # same decision is a kind of its own in the outbox's once-only key.
        earlier = Notification.objects.filter(
            game=game, seat=seat, version=game.decision_version, kind__startswith="reminder"
        ).count()
        queued = notification_queue(
            game=game, seat=seat, kind="reminder" if not earlier else f"reminder-{earlier + 1}",
            version=game.decision_version, template="reminder",
            context=_decision_context(game, state, seat, [], {s.colour: s.name for s in Seat.objects.filter(game=game)}),
        )
        return int(queued is not None)


def _game_for_update(game_id: int) -> Game:
    """The game row, locked first on PostgreSQL: every decision then takes its
    locks in one order (game, then seats), so two cannot deadlock. The version
    check and the compare-and-set stay the rule; on SQLite the IMMEDIATE
    transaction already serialises writers."""
    return Game.objects.select_for_update().get(pk=game_id)


def _check_running(game: Game) -> None:
    if game.status != Game.Status.RUNNING:
        raise GameNotRunning()


def _remember_decisions(game: Game, records: list[ActionRecord], seats: dict[int, Seat]) -> None:
    latest: dict[int, int] = {}
    for record in records:
        if record.seat >= 0:
            latest[record.seat] = record.seq
    for position, seq in latest.items():
        Seat.objects.filter(game=game, position=position).update(last_decision_seq=seq)
        if position in seats:
            seats[position].last_decision_seq = seq


def _decision_context(game: Game, state: engine.State, seat: Seat, since: list[dict], names: dict) -> dict:
    observation = engine.observe(state, seat.position)
    return {
        "link": seat_url(seat),
        "decision": engine.decision_kind(state),
        "deadline": game.deadline,
        "observation": observation,
        "board_text": board_text(observation, names),
        "since": [text for text in (describe(e, names) for e in since) if text],
        "names": names,
    }


def _notify_after(game: Game, state: engine.State, seats: dict[int, Seat], records: list[ActionRecord]) -> None:
    """Tell the seat now to decide (with what happened since its last
    decision); tell everyone race results and, at the end, the outcome."""
    finished_races = [e for r in records for e in r.events if e["type"] == "race_over"]
    for seat in seats.values():
        if engine.is_over(state):
            notification_queue(
                game=game, seat=seat, kind="over", version=game.version, template="game_over",
                context={"link": seat_url(seat), "observation": engine.observe(state, seat.position)},
            )
        elif finished_races and seat.email_mode == Seat.EmailMode.EVERY:
            notification_queue(
                game=game, seat=seat, kind="race", version=game.version, template="race",
                context={
                    "link": seat_url(seat),
                    "lines": [describe(e, {s.colour: s.name for s in seats.values()}) for e in finished_races],
                },
            )
    if engine.is_over(state):
        return
    seat = seats.get(engine.to_move(state))
    if seat is None:
        return
    since = [
        event
        for events in ActionRecord.objects.filter(game=game, seq__gt=seat.last_decision_seq)
        .order_by("seq")
        .values_list("events", flat=True)[:400]
        for event in events
    ]
    context = _decision_context(game, state, seat, since, {s.colour: s.name for s in seats.values()})
    notification_queue(
        game=game, seat=seat, kind="turn", version=game.version, template="turn", context=context,
        picture={"observation": context["observation"], "ruleset": game.ruleset},
    )
