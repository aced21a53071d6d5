"""Replies by email: stored by the webhook, then read and applied once.

Only the reply address (reply+<seat>.<version>.<secret>@...) says who acts;
From: is never trusted. Auto-replies are ignored. The same message delivered
twice has the same fingerprint and is stored, and acted on, once.

Storing parses nothing (games.mail.scan looks at the raw text), so the webhook
costs the same whatever the message holds. The worker claims a row
(received -> processing) before reading it and finishes it applied, refused or
ignored, with a reason; a row whose task was lost or whose worker died is
handed out again by the sweep (sweeps.inbound_sweep).

Answers are held to limits per seat (settings REPLY_*), counted in the cache:
a reply past them is still read and applied, only its answer is not sent,
and the next answer tells how many were held back. A worker that dies after
counting an answer but before committing it costs that answer, never the
decision (the sweep's second try applies it)."""

from __future__ import annotations

import email
import email.policy
import hashlib
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import engine, notation_words
from games.board.text import board_text
from games.mail import scan
from games.mail.reading import Reading, read_reply
from games.models import ActionRecord, InboundMessage, Seat

from .decisions import decision_submit
from .enqueue import enqueue_on_commit
from .errors import ServiceError, StaleDecision
from .game_state import load_state
from .limits import Limit, held_add, held_take, limits_hit
from .links import seat_by_reply_address
from .outbox import notification_queue
from .seats import seat_names

log = logging.getLogger(__name__)

RAW_LIMIT = scan.RAW_LIMIT
REFUSAL_KIND = "reply_refused"
# How long the count of answers held back waits for the next answer to tell it.
HELD_KEPT = 7 * 24 * 3600


def _fingerprint(raw: str) -> str:
    message_id = scan.message_id(raw)
    key = f"id:{message_id}" if message_id else f"raw:{raw}"
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def inbound_store(*, raw: str, enqueue: bool = True) -> InboundMessage | None:
    """Keep the message and (unless the caller processes it itself) enqueue
    its processing; None if already stored."""
    size = len(raw)
    raw = scan.clean(raw[:RAW_LIMIT])
    try:
        with transaction.atomic():
            stored = InboundMessage.objects.create(fingerprint=_fingerprint(raw), raw=raw, size=size)
            if enqueue:
                enqueue_on_commit("games.inbound_process", stored.pk)
            return stored
    except IntegrityError:
        return None


def _command(parsed) -> Reading:
    """The one decision the reply holds, read as a person reads it
    (games.mail.reading), or why none is applied."""
    body = parsed.get_body(preferencelist=("plain", "html"))
    try:
        text = _text_of(body) if body is not None else ""
    except (KeyError, LookupError, ValueError, AttributeError):
        text = ""
    if not isinstance(text, str):
        text = ""
    html = body is not None and body.get_content_type() == "text/html"
    return read_reply(scan.clean(text), html=html)


def _text_of(body) -> str:
    payload = body.get_payload()
    unencoded = body.get("content-transfer-encoding", "7bit").strip().lower() in ("7bit", "8bit")
    if isinstance(payload, str) and unencoded and not payload.isascii():
        # 8-bit text handed over as a string (receive_email reads a file so)
        # already holds its characters; get_content would take each for one
        # byte and a German "würfeln" would come out "w\ufffdrfeln".
        return payload
    return body.get_content()


def _seat(raw: str) -> tuple[Seat, int] | None:
    for address in scan.reply_candidates(raw):
        found = seat_by_reply_address(address)
        if found:
            return found
    return None


def inbound_process(*, inbound_id: int) -> str:
    """Act on one stored message, once; returns its final status."""
    claim = timezone.now()
    claimed = InboundMessage.objects.filter(pk=inbound_id, status=InboundMessage.Status.RECEIVED).update(
        status=InboundMessage.Status.PROCESSING, claimed_at=claim
    )
    if not claimed:
        return "already processed"
    stored = InboundMessage.objects.get(pk=inbound_id)
    raw = stored.raw
    if scan.is_automatic(raw):
        return _finish(stored, claim, InboundMessage.Status.IGNORED, _("automatic reply"))
    found = _seat(raw)
    if found is None:
        return _finish(stored, claim, InboundMessage.Status.IGNORED, _("no valid reply address"))
    seat, version = found
    # Whatever is said to this seat, by the services or the engine, is in its
    # language, and so is the reason kept on the row.
    with translation.override(seat.language):
        return _read(stored, claim, seat, version, raw)


def _read(stored: InboundMessage, claim: datetime, seat: Seat, version: int, raw: str) -> str:
    refusal = scan.over_limit(raw, stored.size)
    if refusal is not None:
        return _refuse(stored, claim, seat, version, refusal, command=_("(not read)"), kind=REFUSAL_KIND)
    try:
        reading = _command(email.message_from_string(raw, policy=email.policy.default))
    except Exception as error:  # the parser's, on a message it cannot read
        log.info("inbound %s could not be read: %s", stored.pk, type(error).__name__)
        return _refuse(stored, claim, seat, version, _("the message could not be read"), command=_("(not read)"))
    if reading.refusal:
        return _refuse(stored, claim, seat, version, reading.refusal, command=reading.said)
    return _decide(stored, claim, seat, version, notation_words.in_language(reading.notation, seat.language))


def _decide(stored: InboundMessage, claim: datetime, seat: Seat, version: int, command: str) -> str:
    # The decision, its answer and the row's status commit together: a worker
    # killed half way leaves the row claimed and the game as it was, and the
    # sweep's second try is the first that counts.
    with transaction.atomic():
        if not _still_ours(stored, claim):
            return "already processed"
        try:
            decision_submit(
                seat=seat,
                text=notation_words.to_notation(command),
                seen_version=version,
                source=ActionRecord.Source.EMAIL,
            )
        except ServiceError as error:
            reason = str(error.message)
            _answer(
                seat, stored, version, ok=False, command=command, reason=reason, stale=isinstance(error, StaleDecision)
            )
            return _finish(stored, claim, InboundMessage.Status.REFUSED, reason, seat)
        _answer(seat, stored, version, ok=True, command=command, reason="")
        return _finish(stored, claim, InboundMessage.Status.APPLIED, command, seat)


def _refuse(stored, claim, seat: Seat, version: int, reason: str, *, command: str, kind: str = "reply_error") -> str:
    """Refuse without reading the reply, and say so to the seat (within the
    answers' limits, as every answer)."""
    with transaction.atomic():
        if not _still_ours(stored, claim):
            return "already processed"
        _answer(seat, stored, version, ok=False, command=command, reason=reason, kind=kind)
        return _finish(stored, claim, InboundMessage.Status.REFUSED, reason, seat)


def _still_ours(stored: InboundMessage, claim: datetime) -> bool:
    """Lock the row and check this worker's claim was not released meanwhile
    (a worker that stalled past the sweep's grace period lost it)."""
    return (
        InboundMessage.objects.select_for_update()
        .filter(pk=stored.pk, status=InboundMessage.Status.PROCESSING, claimed_at=claim)
        .exists()
    )


def _finish(stored: InboundMessage, claim: datetime, status: str, result: str, seat: Seat | None = None) -> str:
    done = InboundMessage.objects.filter(
        pk=stored.pk, status=InboundMessage.Status.PROCESSING, claimed_at=claim
    ).update(status=status, result=scan.clean(result)[:500], seat=seat)
    return status if done else "already processed"


def _answer(
    seat: Seat,
    stored: InboundMessage,
    version: int,
    *,
    ok: bool,
    command: str,
    reason: str,
    kind: str = "",
    stale: bool = False,
) -> None:
    """Queue the answer to a reply, unless the seat's answers are held back
    (the decision, if any, is applied all the same)."""
    seat = Seat.objects.select_related("game").get(pk=seat.pk)
    folded = _answer_allowed(seat, version)
    if folded is None:
        return
    context = {
        "command": command or _("(nothing)"),
        "reason": reason,
        "in_reply_to": scan.message_id(stored.raw),
        "folded": folded,
    }
    if not ok:
        context.update(_game_ended(seat) or _game_now(seat, stale=stale))
    with transaction.atomic():
        notification_queue(
            game=seat.game,
            seat=seat,
            kind=kind or ("reply_ok" if ok else "reply_error"),
            version=stored.pk,
            template="reply_ok" if ok else "reply_error",
            context=context,
        )


def _answer_limits() -> tuple[Limit, Limit]:
    """One answer per seat in a while, and one a day for replies to old
    addresses; rolling, so two answers are never a few seconds apart."""
    return (
        Limit("reply-answer", 1, settings.REPLY_ANSWER_EVERY_SECONDS, rolling=True),
        Limit("reply-answer-old", 1, settings.REPLY_OLD_ANSWER_EVERY_SECONDS, rolling=True),
    )


def _answer_allowed(seat: Seat, version: int) -> int | None:
    """None if this answer is held back (and counted, for the next answer to
    tell of), else how many were held back since the last one sent. Anyone
    who has seen one reply address can mail it, with any version, as often as
    they like: every message to it is an answer to the player."""
    every, old = _answer_limits()
    who = str(seat.pk)
    checks = [(every, who)]
    if _old_address(seat.game, version):
        checks.append((old, who))
    if limits_hit(checks) is not None:
        held_add(every, who, keep=HELD_KEPT)
        return None
    return held_take(every, who)


def _old_address(game, version: int) -> bool:
    """Whether the decision a reply address names came up more than
    REPLY_OLD_AFTER_DAYS ago (or the game ended that long ago). A version the
    log does not know is old: the version is not signed, only the seat."""
    since = timezone.now() - timedelta(days=settings.REPLY_OLD_AFTER_DAYS)
    if game.ended_at is not None and game.ended_at < since:
        return True
    if version == game.decision_version:
        return False
    asked = ActionRecord.objects.filter(game=game, seq=version).values_list("created_at", flat=True).first()
    return asked is None or asked < since


def _game_ended(seat: Seat) -> dict:
    """A reply to a game that is over asks for nothing: it is told so, with
    the final standings (or, for a game a moderator ended, just that)."""
    game = seat.game
    if game.status not in (game.Status.OVER, game.Status.ABORTED):
        return {}
    ended: dict = {"ended": True, "aborted": game.status == game.Status.ABORTED}
    if game.status == game.Status.OVER:
        ended["observation"] = engine.observe(load_state(game), seat.position)
        ended["names"] = seat_names(Seat.objects.filter(game=game), seat.language)
    return ended


def _game_now(seat: Seat, *, stale: bool) -> dict:
    """What a refusal needs to help: what to write for the decision now
    asked of this seat (every legal choice, where they can be listed), and for a reply that came too late the
    game as it stands (the refusal says it shows it)."""
    game = seat.game
    if game.status != game.Status.RUNNING:
        return {}
    state = load_state(game)
    mover = engine.to_move(state)
    names = seat_names(Seat.objects.filter(game=game), seat.language)
    found: dict = {}
    if stale:
        found["board_text"] = board_text(engine.observe(state, seat.position), names)
        colour = state.colours[mover] if mover is not None else ""
        found["whose_turn"] = "" if mover == seat.position else names.get(colour) or colour
        found["your_turn"] = mover == seat.position
    if mover == seat.position:
        # The decision links a turn email offers (games.mail.quick), for the
        # decision asked now; the board is shown only to a reply too late.
        found.update(
            observation=engine.observe(state, seat.position), names=names, decision_version=game.decision_version
        )
        found.setdefault("board_text", "")
        choices, every = _choices(state)
        found["examples"] = [_in_language(text, seat.language) for text in choices]
        found["every_choice"] = every
    return found


def _choices(state) -> tuple[list[str], bool]:
    """The decisions legal now, in the notation, and whether that is all of
    them: every bid as one range, then pass; every push, then push none; a
    roll. Removals are too many to list (slots ** players): one example."""
    legal = engine.legal_actions(state)
    kind = engine.decision_kind(state)
    if kind == "bid":
        bids = [action.amount for action in legal if isinstance(action, engine.Bid)]
        shown = []
        if bids:
            low, high = engine.format_action(engine.Bid(bids[0])), engine.format_action(engine.Bid(bids[-1]))
            shown.append(low if low == high else f"{low} … {high}")
        return shown + ["pass"], True
    if kind in ("push", "roll"):
        texts = [engine.format_action(action) for action in legal]
        # Doing nothing is shown last.
        return sorted(texts, key=lambda text: text == "push none"), True
    for action in legal:
        if not isinstance(action, engine.Arrange):
            return [engine.format_action(action)], False
    return [], False


def _in_language(text: str, language: str) -> str:
    """A choice (or a range of bids "bid 0 … bid 9") as the seat writes it."""
    return " … ".join(notation_words.in_language(part, language) for part in text.split(" … "))


def inbound_release(*, waiting: timedelta, stale: timedelta) -> list[int]:
    """Replies no worker has taken for ``waiting`` (their task was lost, e.g.
    the broker was down when they came) and claims older than ``stale`` (the
    worker died): their ids, to be processed again."""
    now = timezone.now()
    InboundMessage.objects.filter(
        status=InboundMessage.Status.PROCESSING, claimed_at__lt=now - stale
    ).update(status=InboundMessage.Status.RECEIVED, claimed_at=None)
    return list(
        InboundMessage.objects.filter(status=InboundMessage.Status.RECEIVED, received_at__lt=now - waiting)
        .order_by("received_at")
        .values_list("pk", flat=True)[:500]
    )
