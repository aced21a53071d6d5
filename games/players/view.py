"""What a computer player reads from its observation: its seat, the teams
it can see, and the cards it cannot (docs/rules-notes.md#what-is-secret)."""

from __future__ import annotations

import random
from collections import Counter

from games.engine import Ruleset
from games.engine.observe import Observation


def seat_of(view: Observation, colour: str) -> int:
    return next(player["seat"] for player in view["players"] if player["colour"] == colour)


def my_seat(view: Observation) -> int:
    assert view["viewer"] is not None  # computer players sit at a seat
    return seat_of(view, view["viewer"])


def team_of(view: Observation, seat: int) -> list[str]:
    """The codes of a seat's display (holes left out)."""
    return [card["code"] for card in view["players"][seat]["display"] if card is not None]


def unseen(view: Observation, ruleset: Ruleset) -> list[str]:
    """The codes of every card this seat has not seen: the deck, the discard
    pile and the other bidders' hidden cards, as one pool."""
    pool = Counter({bearer.code: bearer.count for bearer in ruleset.bearers})
    seen = [card for player in view["players"] for card in player["display"]]
    auction = view["auction"]
    if auction is not None:
        seen += auction["face_up"] + (auction["my_cards"] or [])
    pool.subtract(card["code"] for card in seen if card is not None)
    return sorted(pool.elements())


def drawn(pool: list[str], count: int, rng: random.Random) -> list[str]:
    return rng.sample(pool, min(count, len(pool)))
