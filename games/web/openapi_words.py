"""What the JSON API accepts and the error codes it answers with, stated
once for the views (games/web/api.py) and the OpenAPI document, and the
document's examples that need no engine."""

from __future__ import annotations

from typing import Any

# What the API accepts, stated once for the code and the document.
DECISION_MAX = 200
# A log step and a version are 32-bit columns; 'after' is read as nine digits at most.
VERSION_MAX = 2**31 - 1
AFTER_MAX = 999_999_999
IDEMPOTENCY_KEY_PATTERN = r"^[!-~]([ -~]{0,253}[!-~])?$"

ERROR_CODES = [
    "bad_request",
    "unauthorized",
    "not_found",
    "method_not_allowed",
    "too_large",
    "rate_limited",
    "stale_decision",
    "not_your_turn",
    "game_not_running",
    "illegal_decision",
    "malformed_decision",
    "refused",
    "idempotency_key_reused",
    "too_many_tokens",
]
ERROR_STATUS = {
    "bad_request": 400,
    "unauthorized": 401,
    "not_found": 404,
    "method_not_allowed": 405,
    "too_large": 413,
    "rate_limited": 429,
    "stale_decision": 409,
    "not_your_turn": 409,
    "game_not_running": 409,
    "illegal_decision": 422,
    "malformed_decision": 422,
    "refused": 422,
    "idempotency_key_reused": 422,
    "too_many_tokens": 409,
}
ERROR_MEANING = {
    "bad_request": "The request itself is wrong: a body that is not the JSON object documented, a 'version' "
    "or 'after' out of range, an Idempotency-Key that is not 1 to 255 printable ASCII characters.",
    "unauthorized": "No token, or one that was ended, or one made before a moderator handed the seat to someone "
    "else, or a token of the other kind: a seat token opens no /me/ address and a player token no /seat "
    "address. The WWW-Authenticate header names the scheme.",
    "not_found": "No game with that id, or no such address under /api/v1/; under /me/, no seat of yours at that "
    "place (the same answer whether the game does not exist or the seat is someone else's), or no live seat "
    "token with that id made by this player token.",
    "method_not_allowed": "The address does not answer this method; the Allow header lists the ones it does.",
    "too_large": "The body is larger than the server reads.",
    "rate_limited": "Too many requests this minute, for the token or the client address; the Retry-After "
    "header says in how many seconds to try again.",
    "stale_decision": "The decision was sent with a version that is no longer the pending decision's: "
    "someone or something (the player on another device, a standing order, the deadline, the autopilot, a "
    "moderator) decided first. Nothing was changed. The answer carries 'decided_by' (the history entry of "
    "the decision that answered the version sent, or null) and 'current' (the seat's view now).",
    "not_your_turn": "The version is current but another seat decides now. Nothing was changed.",
    "game_not_running": "The game is paused, over or aborted (or not yet begun). Nothing was changed.",
    "illegal_decision": "Well formed, but the rules forbid it now (a bid too low, a colour not in the race, "
    "an arrangement after the race's first roll). Nothing was changed.",
    "malformed_decision": "The text is not a decision in the notation. Nothing was changed.",
    "refused": "A refusal with no code of its own; the message says why. Nothing was changed. Handle it as "
    "illegal_decision.",
    "too_many_tokens": "The seat has as many live seat tokens as it may; end one first (DELETE it, or on the "
    "seat's page). Nothing was changed.",
    "idempotency_key_reused": "The Idempotency-Key was sent before (by this token, within a day) with another "
    "decision or version. Nothing was changed; a new decision needs a new key.",
}

GAME_EXAMPLE = {
    "id": "k3xq9wpt",
    "status": "running",
    "version": 8,
    "decision_version": 7,
    "deadline": "2026-12-05T09:00:00+00:00",
    "seed_commitment": "9f2c…",
    "seed": None,
}
SEATS_EXAMPLE = [
    {"position": n, "colour": c, "name": f"Player {n}", "computer": None, "autopilot": False}
    for n, c in enumerate(["red", "yellow", "green", "blue"])
]
ENTRY_EXAMPLE = {
    "seq": 41,
    "at": "2026-12-04T10:15:02+00:00",
    "actor": "order",
    "source": "server",
    "colour": "red",
    "decision": "roll",
    "events": [],
    "text": [],
}
CHANCE_EXAMPLE = {
    "seq": 42,
    "at": "2026-12-04T10:15:02+00:00",
    "actor": "chance",
    "source": "server",
    "colour": None,
    "decision": None,
    "events": [{"type": "roll", "colour": "red", "face": 3, "code": "+2", "from": 0, "to": 2, "status": "racing"}],
    "text": ["Anna rolled 3: +2, to space 2."],
}

# One example a code, as the API answers it (the message in English).
ERROR_EXAMPLES = [
    {"error": {"code": "stale_decision", "message": "This decision was already made. Nothing was changed."}},
    *({"error": {"code": code, "message": ERROR_MEANING[code].split(";")[0]}} for code in ERROR_CODES[:6]),
    *({"error": {"code": code, "message": ERROR_MEANING[code].split(".")[0] + "."}} for code in ERROR_CODES[7:]),
]
# Every kind of decision, each with the version it takes.
DECISION_REQUEST_EXAMPLES = [
    {"decision": "bid 12", "version": 7},
    {"decision": "pass", "version": 7},
    {"decision": "roll", "version": 31},
    {"decision": "push blue", "version": 33},
    {"decision": "push none", "version": 33},
    {"decision": "remove red:3 yellow:1 green:4 blue:2", "version": 58},
    {"decision": "arrange +5 +2 +3 goof", "version": 0},
]


def part_examples(auction: dict, race: dict) -> dict[str, Any]:
    """Examples of the observation's parts, taken from the engine's
    observations (``auction`` in an auction, ``race`` in a race)."""
    chairs = race["race"]["chairs"]
    colour = next(iter(chairs))
    return {
        "Card": race["players"][0]["display"][0],
        "Player": race["players"][0],
        "Auction": auction["auction"],
        "Race": race["race"],
        "Chair": chairs[colour],
        "LastRoll": {"colour": colour, "face": 3, "code": race["players"][0]["display"][0]["code"]},
        "Result": {
            "number": 1,
            "ranking": list(chairs),
            "prizes": race["race"]["prizes"][: len(chairs)],
            "pond": [],
            "gold": {player["colour"]: player["gold"] for player in race["players"]},
        },
    }
