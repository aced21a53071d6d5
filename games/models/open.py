"""A stranger's request to join an open game, held once its address is confirmed."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game
from .seats import Seat

# A confirmation link not used within this long holds nothing.
JOIN_REQUEST_HOURS = 24


class JoinRequest(models.Model):
    """A name and an address someone gave on an open game's join page. The
    confirmation link's secret is derived from the nonce (services.open_links)
    and only its hash is stored; the seat is held when the page that link
    opens is submitted, never by opening it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="join_requests", verbose_name=_("game"))
    email = models.EmailField(db_index=True, verbose_name=_("email address"))
    display_name = models.CharField(max_length=40, verbose_name=_("name"))
    nonce = models.CharField(max_length=32, verbose_name=_("link nonce"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("link hash"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    confirmed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("confirmed at"))
    seat = models.ForeignKey(
        Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="join_requests", verbose_name=_("seat")
    )

    class Meta:
        verbose_name = _("request to join")
        verbose_name_plural = _("requests to join")

    def __str__(self) -> str:
        return _("%(email)s asks to join game %(game)s") % {"email": self.email, "game": self.game_id}
