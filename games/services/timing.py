"""When a decision is due: deadlines, reminders, and the absences and
autopilot that change them. Reads seats' absences; writes nothing."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Sum

from games.models import Absence, Game, Seat


def reminder_lead(decision_hours: int) -> timedelta:
    """How long before a deadline the reminder goes: an hour a day of decision
    time, at least 15 minutes (1 h before a 24 h deadline, 15 min before 1 h)."""
    return max(timedelta(minutes=15), timedelta(hours=decision_hours) / 24)


def on_autopilot(seat: Seat, now) -> bool:
    """Autopilot, set by a moderator or by missed deadlines, or an absence
    during which the player asked the autopilot to play."""
    if seat.autopilot:
        return True
    return any(
        a.mode == "autopilot" and a.starts_at <= now < a.ends_at for a in absences_of(seat, now)
    )


def computer_level(seat: Seat, now) -> str | None:
    """The level of the computer player deciding for this seat: its own, a
    computer seat's, or the expert one while the seat is on autopilot; None
    while a person decides."""
    if seat.computer:
        return seat.computer
    return Seat.Computer.EXPERT if on_autopilot(seat, now) else None


def absences_of(seat: Seat, now) -> list:
    """The seat's absences that have not ended by ``now``; no query at all for
    a seat whose latest absence is over (most seats, most of the time)."""
    if seat.away_until is None or seat.away_until <= now:
        return []
    # Loaded once per seat object per request.
    cached = getattr(seat, "_absences_cache", None)
    if cached is None:
        cached = list(seat.absences.filter(ends_at__gt=now))
        seat._absences_cache = cached  # type: ignore[attr-defined]  # a cache on the object, as Django's prefetch has
    return cached


def deadline_for(game: Game, seat: Seat | None, now):
    """The decision time from now, pushed past any absence of the seat's
    that covers it (an absent player's decision waits for their return)."""
    deadline = now + timedelta(hours=game.decision_hours)
    if seat is None:
        return deadline
    for absence in absences_of(seat, now):
        if absence.mode == "extend" and absence.starts_at <= deadline and absence.ends_at > now:
            deadline = max(deadline, absence.ends_at + timedelta(hours=game.decision_hours))
    return deadline


def absence_days_left(seat: Seat) -> int:
    used = Absence.objects.filter(seat=seat).aggregate(total=Sum("days"))["total"] or 0
    return max(0, seat.game.absence_allowance_days - used)
