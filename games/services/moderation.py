"""What moderators may do to a game. Every action needs a reason and leaves a
public entry in the game's history."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.models import ActionRecord, Game, HelpRequest, ModerationEntry, Seat, SeatHolder

from .decisions import deadline_expire, orders_apply_now
from .errors import ServiceError
from .game_state import game_lock
from .links import link_issue
from .outbox import notification_queue
from .timing import reminder_lead

MODERATORS_GROUP = "moderators"
REASON_MAX = 500


def is_moderator(user) -> bool:
    return bool(
        user
        and user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.groups.filter(name=MODERATORS_GROUP).exists()
    )


def moderator_make(*, username: str, email: str, password: str | None) -> bool:
    """Make ``username`` a moderator, a staff user in the moderators group,
    creating the user if there is none. A password replaces theirs; None
    keeps it. True if the user was created."""
    with transaction.atomic():
        user = User.objects.filter(username=username).first()
        created = user is None
        if user is None:
            user = User(username=username, email=email)
        user.is_staff = True
        if password is not None:
            user.set_password(password)
        if email:
            user.email = email
        user.save()
        user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return created


def _entry(
    *, moderator, game: Game, action: str, reason: str, seat: Seat | None = None, detail: str = ""
) -> ModerationEntry:
    if not is_moderator(moderator):
        raise ServiceError(_("Only moderators may do that."))
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give a reason: the players will see it."))
    Game.objects.filter(pk=game.pk).update(moderation_steps=F("moderation_steps") + 1)
    return ModerationEntry.objects.create(
        game=game,
        moderator=moderator,
        action=action,
        seat_position=None if seat is None else seat.position,
        detail=detail[:200],
        reason=reason[:REASON_MAX],
        at_seq=game.version,
    )


def deadline_extend(*, moderator, game: Game, hours: int, reason: str) -> Game:
    if not 1 <= hours <= 24 * 30:
        raise ServiceError(_("Extend by 1 hour to 30 days."))
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.deadline is None or game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
            raise ServiceError(_("There is no deadline to extend."))
        mover = _mover_seat(game)
        _entry(moderator=moderator, game=game, action="extend", reason=reason, seat=mover, detail=str(hours))
        game.deadline += timedelta(hours=hours)
        # A moved deadline gets its reminder again.
        game.reminder_at = game.deadline - reminder_lead(game.decision_hours)
        Game.objects.filter(pk=game.pk).update(deadline=game.deadline, reminder_at=game.reminder_at)
    return game


def game_pause(*, moderator, game: Game, reason: str) -> Game:
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.RUNNING:
            raise ServiceError(_("Only a running game can be paused."))
        _entry(moderator=moderator, game=game, action="pause", reason=reason)
        game.status, game.paused_at = Game.Status.PAUSED, timezone.now()
        Game.objects.filter(pk=game.pk).update(status=game.status, paused_at=game.paused_at)
    return game


def game_resume(*, moderator, game: Game, reason: str) -> Game:
    """Deadlines move on by exactly the time the game stood paused."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.PAUSED:
            raise ServiceError(_("Only a paused game can be resumed."))
        if game.paused_at is None:
            raise ValueError(f"game {game.pk} is paused but has no time it was paused at")
        paused_for = timezone.now() - game.paused_at
        _entry(
            moderator=moderator, game=game, action="resume", reason=reason, detail=str(int(paused_for.total_seconds()))
        )
        fields: dict[str, object] = {"status": Game.Status.RUNNING, "paused_at": None}
        if game.deadline is not None:
            fields["deadline"] = game.deadline + paused_for
        if game.reminder_at is not None:
            fields["reminder_at"] = game.reminder_at + paused_for
        Game.objects.filter(pk=game.pk).update(**fields)
        for name, value in fields.items():
            setattr(game, name, value)
    return game


def default_apply_now(*, moderator, game: Game, reason: str) -> Game:
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.RUNNING:
            raise ServiceError(_("The game is not running."))
        _entry(moderator=moderator, game=game, action="default", reason=reason, seat=_mover_seat(game))
        return deadline_expire(
            game_id=game.pk,
            seen_version=game.decision_version,
            source=ActionRecord.Source.MODERATOR,
            actor=ActionRecord.Actor.MODERATOR,
        )


def _a_person(seat: Seat) -> None:
    """A computer seat has no address, no link and nobody to replace: the
    seat actions are for people's seats only."""
    if seat.computer:
        raise ServiceError(_("That seat is a computer player's: it has no email, link or autopilot to change."))
    if not seat.email:
        # Strangers take it by a confirmed address (services.open_games).
        raise ServiceError(_("That seat is still open: nobody holds it yet."))


def seat_replace(*, moderator, seat: Seat, new_email: str, reason: str) -> Seat:
    """A new player takes the seat: a new link is mailed to them, the old link
    and reply address stop working, the history keeps who played what."""
    _a_person(seat)
    new_email = (new_email or "").strip().lower()
    try:
        validate_email(new_email)
    except ValidationError:
        raise ServiceError(_("Give a valid email address for the new player.")) from None
    with transaction.atomic():
        game = game_lock(seat.game_id)
        seat = Seat.objects.select_related("game").get(pk=seat.pk)
        if game.status in (Game.Status.OVER, Game.Status.ABORTED):
            raise ServiceError(_("The game has ended."))
        if Seat.objects.filter(game=game, email=new_email).exclude(pk=seat.pk).exists():
            raise ServiceError(_("That address already plays in this game."))
        _entry(moderator=moderator, game=game, action="replace", reason=reason, seat=seat)
        started = (
            SeatHolder.objects.filter(seat=seat).order_by("-until_seq").values_list("until_seq", flat=True).first()
        )
        SeatHolder.objects.create(
            seat=seat,
            email=seat.email,
            display_name=seat.display_name,
            from_seq=started or 0,
            until_seq=game.version,
            token_hash=seat.token_hash,
        )
        seat.email = new_email
        link_issue(seat)
        seat.email_undeliverable = False
        seat.emails_stopped = False
        seat.missed_deadlines = 0
        seat.link_opened_at = None
        if seat.autopilot_reason == "missed":
            seat.autopilot, seat.autopilot_reason = False, ""
        seat.save()
        notification_queue(
            game=game,
            seat=seat,
            kind="handover",
            version=game.version,
            template="handover",
            context={},
        )
    return seat


def autopilot_set(*, moderator, seat: Seat, on: bool, reason: str) -> Seat:
    _a_person(seat)
    with transaction.atomic():
        game = game_lock(seat.game_id)
        _entry(
            moderator=moderator, game=game, action="autopilot_on" if on else "autopilot_off", reason=reason, seat=seat
        )
        Seat.objects.filter(pk=seat.pk).update(
            autopilot=on, autopilot_reason="moderator" if on else "", missed_deadlines=0
        )
        seat.refresh_from_db()
    if on and game.status == Game.Status.RUNNING:
        orders_apply_now(game_id=game.pk)
    return seat


def link_resend_for(*, moderator, seat: Seat, reason: str) -> None:
    _a_person(seat)
    with transaction.atomic():
        game = game_lock(seat.game_id)
        entry = _entry(moderator=moderator, game=game, action="resend", reason=reason, seat=seat)
        notification_queue(
            game=game,
            seat=seat,
            kind="modlink",
            version=entry.pk,
            template="link",
            context={},
        )


def game_abort(*, moderator, game: Game, message: str, reason: str) -> Game:
    message = (message or "").strip()
    if not message:
        raise ServiceError(_("Write the message the players will get."))
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status in (Game.Status.OVER, Game.Status.ABORTED):
            raise ServiceError(_("The game has already ended."))
        _entry(moderator=moderator, game=game, action="abort", reason=reason, detail=message[:200])
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.ABORTED, deadline=None, reminder_at=None, ended_at=timezone.now()
        )
        game.status = Game.Status.ABORTED
        for seat in Seat.objects.filter(game=game).select_related("game"):
            notification_queue(
                game=game,
                seat=seat,
                kind="abort",
                version=game.version,
                template="abort",
                context={"message": message},
            )
    return game


def help_handled(*, moderator, help_request: HelpRequest, reason: str) -> None:
    with transaction.atomic():
        game = game_lock(help_request.game_id)
        _entry(moderator=moderator, game=game, action="help", reason=reason, seat=help_request.seat)
        HelpRequest.objects.filter(pk=help_request.pk).update(handled_at=timezone.now())


def game_hide(*, moderator, game: Game, reason: str) -> None:
    """Take an open game out of the lobby; its join link then opens nothing.
    Those who hold seats keep them."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if not game.join_hash or game.hidden:
            raise ServiceError(_("This game is not listed for strangers to join."))
        _entry(moderator=moderator, game=game, action="hide", reason=reason)
        Game.objects.filter(pk=game.pk).update(hidden=True)


def _mover_seat(game: Game) -> Seat | None:
    if game.state is None:
        return None
    mover = engine.to_move(engine.state_from_json(game.state))
    if mover is None:
        return None
    return Seat.objects.filter(game=game, position=mover).first()
