"""A decision sent to the JSON API, with an optional ``Idempotency-Key``:
the same key (per token) answers what it answered the first time, and the
decision is applied once; the same key with another decision is refused.

The keys live in the database (ApiIdempotencyKey), not in a cache: the key
row is written in the decision's own transaction, so a crash between
applying a decision and remembering its answer cannot happen. A cache
could lose the answer after the decision committed, and a retry would then
be refused as stale instead of answered. A key is kept for a day
(KEY_KEPT): a client retries within minutes, and a token's rows older than
that are deleted when it stores a new one, so no sweep is needed."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import ApiIdempotencyKey, ApiToken, Game

from .decisions import notation_submit
from .errors import ServiceError

KEY_KEPT = timedelta(days=1)
# What a client may send as a key: a UUID fits many times over.
KEY_MAX = 255


class IdempotencyKeyReused(ServiceError):
    code = "idempotency_key_reused"
    message = _(
        "This Idempotency-Key was already sent with another decision. Nothing was changed; "
        "use a new key for a new decision."
    )


@dataclass(frozen=True)
class Outcome:
    """What a decision did: the game after it, or the refusal."""

    game: Game | None
    refusal: ServiceError | None
    # False for an arrangement in the order the team already has.
    changed: bool


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict
    replayed: bool


class _KeyTaken(Exception):
    """Another request with the same key committed first."""


def fingerprint(text: str, version: int) -> str:
    return hashlib.sha256(f"{version}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()


def _stored(token: ApiToken, key: str, print_: str) -> Answer | None:
    row = (
        ApiIdempotencyKey.objects.filter(token=token, key=key, created_at__gte=timezone.now() - KEY_KEPT)
        .only("fingerprint", "status", "answer")
        .first()
    )
    if row is None:
        return None
    if row.fingerprint != print_:
        raise IdempotencyKeyReused()
    return Answer(row.status, row.answer, replayed=True)


def api_decision_submit(
    *,
    token: ApiToken,
    text: str,
    version: int,
    key: str | None,
    answer: Callable[[Outcome], tuple[int, dict]],
) -> Answer:
    """Apply the decision for ``token``'s seat and answer it with
    ``answer`` (the caller's JSON for the outcome, built inside the
    transaction); with a key, remember that answer, or give the one
    remembered. Raises IdempotencyKeyReused for a key sent with another
    decision."""
    print_ = fingerprint(text, version)
    # Twice at most: a request that lost the race for its key answers as
    # the winner did, which the second look finds.
    for _attempt in range(2):
        if key is not None and (found := _stored(token, key, print_)) is not None:
            return found
        try:
            # The key's row commits with the decision, or neither does.
            # Without a key there is nothing to commit with it: the decision's
            # own transaction is the only one, and no savepoint is paid for
            # (two round trips to the database).
            with transaction.atomic() if key is not None else contextlib.nullcontext():
                try:
                    game = notation_submit(seat=token.seat, text=text, seen_version=version, source="api")
                except ServiceError as refusal:
                    outcome = Outcome(None, refusal, changed=False)
                else:
                    outcome = Outcome(game, None, changed=bool(getattr(game, "records_made", True)))
                status, body = answer(outcome)
                if key is not None:
                    _remember(token, key, print_, status, body)
        except _KeyTaken:
            continue
        return Answer(status, body, replayed=False)
    raise _KeyTaken()  # pragma: no cover - a key is never taken twice and then missing


def _remember(token: ApiToken, key: str, print_: str, status: int, body: dict) -> None:
    ApiIdempotencyKey.objects.filter(token=token, created_at__lt=timezone.now() - KEY_KEPT).delete()
    try:
        with transaction.atomic():
            ApiIdempotencyKey.objects.create(token=token, key=key, fingerprint=print_, status=status, answer=body)
    except IntegrityError:
        # The unique (token, key) index held this insert until the other
        # request committed; its decision stands and this one's is undone.
        raise _KeyTaken() from None
