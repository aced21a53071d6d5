"""Replies by email: stored by the webhook, then read and applied once.

Only the reply address (reply+<seat>.<version>.<secret>@...) says who acts;
From: is never trusted. Auto-replies are ignored. The same message delivered
twice has the same fingerprint and is stored, and acted on, once."""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from email.utils import getaddresses

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.enqueue import enqueue_on_commit
from games.models import ActionRecord, InboundMessage, Seat

from .errors import ServiceError
from .decisions import decision_submit
from .links import seat_by_reply_address
from .outbox import notification_queue

RAW_LIMIT = 1_000_000
AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}


def _fingerprint(raw: str, parsed) -> str:
    message_id = (parsed.get("Message-ID") or "").strip()
    return hashlib.sha256((message_id or raw).encode("utf-8", "replace")).hexdigest()


def inbound_store(*, raw: str, enqueue: bool = True) -> InboundMessage | None:
    """Keep the message and (unless the caller processes it itself) enqueue
    its processing; None if already stored."""
    raw = raw[:RAW_LIMIT]
    parsed = email.message_from_string(raw, policy=email.policy.default)
    fingerprint = _fingerprint(raw, parsed)
    try:
        with transaction.atomic():
            stored = InboundMessage.objects.create(fingerprint=fingerprint, raw=raw)
            if enqueue:
                enqueue_on_commit("games.inbound_process", stored.pk)
            return stored
    except IntegrityError:
        return None


def _is_automatic(parsed) -> bool:
    auto = (parsed.get("Auto-Submitted") or "no").strip().lower()
    if auto != "no":
        return True
    if (parsed.get("Precedence") or "").strip().lower() in AUTO_PRECEDENCE:
        return True
    return any(parsed.get(h) for h in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"))


def _recipients(parsed) -> list[str]:
    headers = []
    for name in ("X-Envelope-To", "Delivered-To", "X-Original-To", "To", "Cc"):
        headers.extend(str(value) for value in parsed.get_all(name) or [])
    return [address for _, address in getaddresses(headers) if address]


def _command(parsed) -> str:
    """The first line of the reply that is not empty and not quoted."""
    try:
        body = parsed.get_body(preferencelist=("plain", "html"))
        text = body.get_content() if body is not None else ""
    except (KeyError, LookupError, ValueError):
        text = ""
    if body is not None and body.get_content_type() == "text/html":
        text = re.sub(r"<[^>]+>", "\n", text)
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(">"):
            return line[:200]
    return ""


def inbound_process(*, inbound_id: int) -> str:
    """Act on one stored message, once; returns its final status."""
    with transaction.atomic():
        claimed = InboundMessage.objects.filter(pk=inbound_id, status=InboundMessage.Status.RECEIVED).update(
            status=InboundMessage.Status.IGNORED, result="processing"
        )
    if not claimed:
        return "already processed"
    stored = InboundMessage.objects.get(pk=inbound_id)
    parsed = email.message_from_string(stored.raw, policy=email.policy.default)
    if _is_automatic(parsed):
        return _finish(stored, InboundMessage.Status.IGNORED, "automatic reply", None)
    found = None
    for address in _recipients(parsed):
        found = seat_by_reply_address(address)
        if found:
            break
    if found is None:
        return _finish(stored, InboundMessage.Status.IGNORED, "no valid reply address", None)
    seat, version = found
    command = _command(parsed)
    try:
        decision_submit(seat=seat, text=command, seen_version=version, source=ActionRecord.Source.EMAIL)
    except ServiceError as error:
        _answer(seat, stored, ok=False, command=command, reason=str(error.message))
        return _finish(stored, InboundMessage.Status.REFUSED, str(error.message), seat)
    _answer(seat, stored, ok=True, command=command, reason="")
    return _finish(stored, InboundMessage.Status.APPLIED, command, seat)


def _finish(stored: InboundMessage, status: str, result: str, seat: Seat | None) -> str:
    InboundMessage.objects.filter(pk=stored.pk).update(status=status, result=result[:500], seat=seat)
    return status


def _answer(seat: Seat, stored: InboundMessage, *, ok: bool, command: str, reason: str) -> None:
    seat = Seat.objects.select_related("game").get(pk=seat.pk)
    with transaction.atomic():
        notification_queue(
            game=seat.game,
            seat=seat,
            kind="reply_ok" if ok else "reply_error",
            version=stored.pk,
            template="reply_ok" if ok else "reply_error",
            context={"command": command or _("(nothing)"), "reason": reason},
        )
