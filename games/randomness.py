"""Chance outcomes anyone can check once the seed is revealed
(docs/architecture.md#randomness-you-can-check).

Step ``n`` of game ``g`` picks among the engine's listed outcomes with
HMAC-SHA256(seed, "g:n:attempt"), rejecting draws that would bias a modulo.
Standard library only, so the verification can be rerun anywhere."""

from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BYTES = 32


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def pick_index(seed_hex: str, game: str, step: int, count: int) -> int:
    """A uniform index in ``range(count)`` for this game's chance step."""
    if count < 1:
        raise ValueError("nothing to choose from")
    key = bytes.fromhex(seed_hex)
    # 2**256 draws, and the largest multiple of ``count`` below it: a value
    # at or above that limit would favour small indexes, so it is redrawn.
    limit = (1 << 256) - ((1 << 256) % count)
    attempt = 0
    while True:
        message = f"{game}:{step}:{attempt}".encode()
        value = int.from_bytes(hmac.new(key, message, hashlib.sha256).digest(), "big")
        if value < limit:
            return value % count
        attempt += 1
