"""What a player sets on their seat page: standing orders, their emails and
their language."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from games.models import Game, Seat

from .decisions import orders_apply_now
from .errors import ServiceError
from .game_state import load_state
from .orders import orders_clean


def emails_stop(*, seat: Seat) -> None:
    """The one-click unsubscribe: no more game emails to this seat (the game
    goes on; deadlines and standing orders decide for it)."""
    Seat.objects.filter(pk=seat.pk).update(emails_stopped=True)


def emails_resume(*, seat: Seat, mode: str) -> None:
    if mode not in Seat.EmailMode.values:
        raise ServiceError(_("Choose one of the email options."))
    Seat.objects.filter(pk=seat.pk).update(emails_stopped=False, email_mode=mode)


def language_clean(language: str) -> str:
    if language not in dict(settings.LANGUAGES):
        raise ServiceError(_("Choose one of the languages offered."))
    return language


def language_set(*, seat: Seat, language: str) -> None:
    """The seat's pages and every email to it from now on are in ``language``."""
    Seat.objects.filter(pk=seat.pk).update(language=language_clean(language))


def orders_set(
    *,
    seat: Seat,
    auto_roll: bool,
    bid_limit: int | None,
    devil: str,
    removal: str,
    bid_every: bool = False,
    auction: str | None = None,
) -> Seat:
    """Save a seat's standing orders and apply them at once if they answer the
    pending decision. ``auction`` is the auction the form was shown for (see
    orders_clean)."""
    game = seat.game
    if game.status != Game.Status.RUNNING:
        raise ServiceError(_("Standing orders apply only while the game runs."))
    state = load_state(game)
    orders = orders_clean(
        {
            "auto_roll": auto_roll,
            "bid_limit": bid_limit,
            "bid_every": bid_every,
            "devil": devil or None,
            "removal": removal or None,
            **({} if auction is None else {"auction": auction}),
        },
        state,
    )
    Seat.objects.filter(pk=seat.pk).update(standing_orders=orders)
    seat.standing_orders = orders
    orders_apply_now(game_id=game.pk)
    return seat
