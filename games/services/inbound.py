"""Replies by email: stored by the webhook, then read and applied once.

Only the reply address (reply+<seat>.<version>.<secret>@...) says who acts;
From: is never trusted. Auto-replies are ignored. The same message delivered
twice has the same fingerprint and is stored, and acted on, once.

Storing parses nothing (games.mail.scan looks at the raw text), so the webhook
costs the same whatever the message holds. The worker claims a row
(received -> processing) before reading it and finishes it applied, refused or
ignored, with a reason; a row whose task was lost or whose worker died is
handed out again by the sweep (sweeps.inbound_sweep)."""

from __future__ import annotations

import email
import email.policy
import hashlib
import logging
import re
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import engine, notation_words
from games.board.text import board_text
from games.mail import scan
from games.models import ActionRecord, InboundMessage, Notification, Seat

from .decisions import decision_submit
from .enqueue import enqueue_on_commit
from .errors import ServiceError, StaleDecision
from .game_state import load_state
from .links import seat_by_reply_address
from .outbox import notification_queue
from .seats import seat_names

log = logging.getLogger(__name__)

RAW_LIMIT = scan.RAW_LIMIT
# A message refused for its size is answered once per seat in this time, so
# whoever knows a reply address cannot make us mail the player over and over.
REFUSAL_ANSWER_EVERY = timedelta(hours=1)
REFUSAL_KIND = "reply_refused"


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


def _command(parsed) -> str:
    """The first line of the reply that is not empty and not quoted."""
    body = parsed.get_body(preferencelist=("plain", "html"))
    try:
        text = _text_of(body) if body is not None else ""
    except (KeyError, LookupError, ValueError, AttributeError):
        text = ""
    if not isinstance(text, str):
        text = ""
    if body is not None and body.get_content_type() == "text/html":
        text = re.sub(r"<[^<>]*>", "\n", text)  # not [^>]+: quadratic on "<<<<"
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(">"):
            return scan.clean(line[:200])
    return ""


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
        return _refuse(stored, claim, seat, refusal, command=_("(not read)"), kind=REFUSAL_KIND)
    try:
        command = _command(email.message_from_string(raw, policy=email.policy.default))
    except Exception as error:  # the parser's, on a message it cannot read
        log.info("inbound %s could not be read: %s", stored.pk, type(error).__name__)
        return _refuse(stored, claim, seat, _("the message could not be read"), command=_("(not read)"))
    return _decide(stored, claim, seat, version, command)


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
            _answer(seat, stored, ok=False, command=command, reason=reason, stale=isinstance(error, StaleDecision))
            return _finish(stored, claim, InboundMessage.Status.REFUSED, reason, seat)
        _answer(seat, stored, ok=True, command=command, reason="")
        return _finish(stored, claim, InboundMessage.Status.APPLIED, command, seat)


def _refuse(stored, claim, seat: Seat, reason: str, *, command: str, kind: str = "reply_error") -> str:
    """Refuse without reading the reply, and say so to the seat, unless it was
    told so for another message within the hour."""
    with transaction.atomic():
        if not _still_ours(stored, claim):
            return "already processed"
        recent = Notification.objects.filter(
            seat=seat, kind=kind, created_at__gte=timezone.now() - REFUSAL_ANSWER_EVERY
        )
        if kind != REFUSAL_KIND or not recent.exists():
            _answer(seat, stored, ok=False, command=command, reason=reason, kind=kind)
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
    seat: Seat, stored: InboundMessage, *, ok: bool, command: str, reason: str, kind: str = "", stale: bool = False
) -> None:
    seat = Seat.objects.select_related("game").get(pk=seat.pk)
    context = {"command": command or _("(nothing)"), "reason": reason, "in_reply_to": scan.message_id(stored.raw)}
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
    """What a refusal needs to help: examples of what to write for the
    decision now asked of this seat, and for a reply that came too late the
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
        found["examples"] = [notation_words.in_language(text, seat.language) for text in _examples(state)]
    return found


def _examples(state) -> list[str]:
    """One legal action of each sort (the lowest bid and pass, a push and
    push none, a removal with this game's colours), in the notation."""
    examples: dict[tuple, str] = {}
    for action in engine.legal_actions(state):
        if isinstance(action, engine.Arrange):
            continue
        text = engine.format_action(action)
        # Doing nothing (pass, push none) is its own sort, shown last.
        examples.setdefault((type(action), text in ("pass", "push none")), text)
        if len(examples) == 2:
            break
    return [text for key, text in sorted(examples.items(), key=lambda item: item[0][1])]


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
