"""Seat links: a secret per seat that only the server can recompute.

The token is an HMAC of the seat's random nonce under SECRET_KEY, so emails
sent days later can carry the link while the database holds only its hash
(a copy of the database alone opens no seat). A new nonce revokes the link.

After SECRET_KEY is rotated (the old key in SECRET_KEY_FALLBACKS) every
secret made under an old key is still accepted. The stored hash is of the
seat token under the key in force when the link was issued, so emails keep
carrying that same token until the link is issued again: a link sent before
the rotation and one sent after are the same link, and both open the seat.
Once a key is dropped from the fallbacks, whatever it made opens nothing."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.conf import settings
from django.urls import reverse

from games.models import Game, HomeLink, JoinRequest, Seat

# Longer than any token we issue: a longer one is not looked up.
TOKEN_MAX = 100

# The games whose links "send me my links again" mails.
LINKS_STATUSES = (Game.Status.INVITING, Game.Status.RUNNING, Game.Status.PAUSED)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _keys() -> list[str]:
    """The key new secrets are made with first, then the ones still accepted."""
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def _digest(key: str, purpose: str, seat: Seat) -> bytes:
    return _digest_of(key, purpose, seat.game.public_id, seat.position, seat.link_nonce)


def _digest_of(key: str, purpose: str, public_id: str, position: int, nonce: str) -> bytes:
    message = f"versailles-{purpose}:{public_id}:{position}:{nonce}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).digest()


def _short(digest: bytes) -> str:
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def _derive(purpose: str, seat: Seat, key: str | None = None) -> str:
    return _short(_digest(key or settings.SECRET_KEY, purpose, seat))


def seat_token(seat: Seat) -> str:
    """The token whose hash the seat stores: made under whichever accepted key
    the link was issued with, so a rotation changes no link."""
    for key in _keys():
        token = _derive("seat", seat, key)
        if token_hash(token) == seat.token_hash:
            return token
    return _derive("seat", seat)


def reply_token(seat: Seat, key: str | None = None) -> str:
    """A second secret for email replies: the letters of an address are not
    case-safe, so it is hex, and it is not the link (a reply address is seen
    by more mail servers than a link)."""
    return _digest(key or settings.SECRET_KEY, "reply", seat).hex()[:32]


def _any_key_matches(make, given: str) -> bool:
    # Every key is tried even after a match, so the time taken does not tell
    # which key made the secret.
    matches = [hmac.compare_digest(make(key), given) for key in _keys()]
    return any(matches)


def reply_address(seat: Seat, version: int) -> str:
    """reply+<seat id>.<decision version>.<secret>@REPLY_DOMAIN"""
    return f"reply+{seat.pk}.{version}.{reply_token(seat)}@{settings.REPLY_DOMAIN}"


def seat_by_reply_address(address: str) -> tuple[Seat, int] | None:
    """The seat and decision version a reply address names, if its secret is right."""
    local = address.split("@", 1)[0].strip().lower()
    if not local.startswith("reply+"):
        return None
    parts = local[len("reply+"):].split(".")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or len(parts[0]) > 18:
        return None
    seat = Seat.objects.select_related("game").filter(pk=int(parts[0])).first()
    if seat is None or not _any_key_matches(lambda key: reply_token(seat, key), parts[2]):
        return None
    return seat, int(parts[1])


def unsubscribe_token(seat: Seat, key: str | None = None) -> str:
    """<seat id>.<secret>: a secret of its own (unsubscribe links pass through
    mail servers and list archives), which opens no seat; the id finds the
    seat, as nothing of this secret is stored."""
    return f"{seat.pk}.{_derive('unsubscribe', seat, key)}"


def seat_by_unsubscribe_token(token: str) -> Seat | None:
    """The seat an unsubscribe link names, if its secret is right."""
    seat_id, dot, _secret = (token or "").partition(".")
    if not dot or not seat_id.isdigit() or len(seat_id) > 18 or len(token) > TOKEN_MAX:
        return None
    seat = Seat.objects.select_related("game").filter(pk=int(seat_id)).first()
    if seat is None or not _any_key_matches(lambda key: unsubscribe_token(seat, key), token):
        return None
    return seat


def unsubscribe_url(seat: Seat) -> str:
    return settings.SITE_URL + reverse("unsubscribe", args=[unsubscribe_token(seat)])


def link_issue(seat: Seat) -> None:
    """Give the (unsaved or saved) seat a fresh link; any older link stops working."""
    seat.link_nonce = secrets.token_hex(12)
    seat.token_hash = token_hash(_derive("seat", seat))


def seat_by_token(token: str) -> Seat | None:
    """The seat a link opens, or None for a forged, mistyped or revoked one."""
    if not token or len(token) > TOKEN_MAX:
        return None
    # get() on the unique hash, not first(): first() adds an ORDER BY to
    # compile; with game_lock's, that was 0.35 ms of a decision POST.
    try:
        seat = Seat.objects.select_related("game").get(token_hash=token_hash(token))
    except Seat.DoesNotExist:
        return None
    # Made under a key no longer accepted: dropping a key from the fallbacks
    # ends its links, as it ends its reply addresses and unsubscribe links.
    if not _any_key_matches(lambda key: _derive("seat", seat, key), token):
        return None
    return seat


def seat_token_made_here(token: str, *, public_id: str, position: int, nonce: str) -> bool:
    """Whether ``token`` is the seat link of that seat under a key still
    accepted (seat_by_token's check, for a caller that read the seat's
    columns rather than the seat)."""
    return _any_key_matches(lambda key: _short(_digest_of(key, "seat", public_id, position, nonce)), token)


def seat_url(seat: Seat) -> str:
    return settings.SITE_URL + reverse("seat", args=[seat_token(seat)])


def _home_secret(link: HomeLink, key: str | None = None) -> str:
    return _short(_digest_of(key or settings.SECRET_KEY, "home", "", 0, link.nonce))


def home_link_fill(link: HomeLink) -> None:
    """Give the (unsaved) home link its secret: a new nonce, and its hash."""
    link.nonce = secrets.token_hex(16)
    link.token_hash = token_hash(_home_secret(link))


def home_token(link: HomeLink) -> str:
    """The secret whose hash the home link stores, under whichever accepted
    key made it (as seat_token)."""
    for key in _keys():
        token = _home_secret(link, key)
        if token_hash(token) == link.token_hash:
            return token
    return _home_secret(link)


def home_link_by_token(token: str) -> HomeLink | None:
    """The home link a secret opens (revoked or expired ones too: the page
    says which), or None for a forged or mistyped one."""
    if not token or len(token) > TOKEN_MAX:
        return None
    link = HomeLink.objects.filter(token_hash=token_hash(token)).first()
    if link is None or not _any_key_matches(lambda key: _home_secret(link, key), token):
        return None
    return link


def home_url(link: HomeLink) -> str:
    return settings.SITE_URL + reverse("home_games", args=[home_token(link)])


def _join_secret(game: Game, key: str | None = None) -> str:
    return _short(_digest_of(key or settings.SECRET_KEY, "join", game.public_id, 0, game.join_nonce))


def join_link_fill(game: Game) -> None:
    """Give the (unsaved) open game its join link: a new nonce, and its hash."""
    game.join_nonce = secrets.token_hex(16)
    game.join_hash = token_hash(_join_secret(game))


def join_token(game: Game) -> str:
    """The join link's secret, under whichever accepted key made it."""
    for key in _keys():
        token = _join_secret(game, key)
        if token_hash(token) == game.join_hash:
            return token
    return _join_secret(game)


def game_by_join_token(token: str) -> Game | None:
    """The open game a join link names, or None for a forged or mistyped one."""
    if not token or len(token) > TOKEN_MAX:
        return None
    game = Game.objects.filter(join_hash=token_hash(token)).exclude(join_hash="").first()
    if game is None or not _any_key_matches(lambda key: _join_secret(game, key), token):
        return None
    return game


def join_url(game: Game) -> str:
    return settings.SITE_URL + reverse("open_join", args=[join_token(game)])


def _confirm_secret(request: JoinRequest, key: str | None = None) -> str:
    return _short(_digest_of(key or settings.SECRET_KEY, "join-confirm", "", request.game_id, request.nonce))


def join_request_fill(request: JoinRequest) -> None:
    """Give the (unsaved) request to join its confirmation secret."""
    request.nonce = secrets.token_hex(16)
    request.token_hash = token_hash(_confirm_secret(request))


def join_request_by_token(token: str) -> JoinRequest | None:
    """The request a confirmation link names (expired or used ones too: the
    page says which), or None for a forged or mistyped one."""
    if not token or len(token) > TOKEN_MAX:
        return None
    found = JoinRequest.objects.select_related("game").filter(token_hash=token_hash(token)).first()
    if found is None or not _any_key_matches(lambda key: _confirm_secret(found, key), token):
        return None
    return found


def join_confirm_url(request: JoinRequest) -> str:
    for key in _keys():
        token = _confirm_secret(request, key)
        if token_hash(token) == request.token_hash:
            break
    else:
        token = _confirm_secret(request)
    return settings.SITE_URL + reverse("open_confirm", args=[token])


def seat_links(*, seat_ids: list[int], email: str) -> list[dict]:
    """The links of these seats, for the email that lists them, made when it
    is written. A seat handed to someone else since, or whose game ended,
    is left out: the request named an address, not seats."""
    seats = (
        Seat.objects.select_related("game")
        .filter(pk__in=seat_ids, email=email, game__status__in=LINKS_STATUSES)
        .order_by("-game__created_at", "pk")
    )
    return [
        {
            "public_id": seat.game.public_id,
            "status": Game.Status(seat.game.status).label,
            "players": seat.game.seats.count(),
            "colour": seat.colour or "",
            "link": seat_url(seat),
        }
        for seat in seats
    ]
