"""Rulesets: every number of the rules lives here and nowhere else in the code
(docs/rules-notes.md#ruleset-parameters)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

COLOURS = ("red", "yellow", "green", "blue", "white", "black")


@dataclass(frozen=True)
class BearerKind:
    """One kind of bearer card.

    ``move`` is how far the own chair moves (negative: backwards); ``push`` is how
    far the roller may push another racing chair back afterwards (0: no push).
    """

    code: str
    move: int
    push: int
    count: int


@dataclass(frozen=True)
class Ruleset:
    name: str
    min_players: int
    max_players: int
    starting_gold: int
    # Listed worst first: this order is also the removal default's "best/worst".
    bearers: tuple[BearerKind, ...]
    display_size: int
    start_space: int
    # The lowest track space; a chair moved below it falls into the shell pond.
    lowest_space: int
    # Track spaces that catch a chair whose backward move ends on them.
    pond_spaces: tuple[int, ...]
    finish_spaces: tuple[int, ...]
    prizes: tuple[tuple[int, ...], ...]
    last_team_price: int
    substitute_auctions: int
    roll_cap: int
    colours: tuple[str, ...] = COLOURS
    card_kinds: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds: list[int] = []
        for index, bearer in enumerate(self.bearers):
            kinds.extend([index] * bearer.count)
        object.__setattr__(self, "card_kinds", tuple(kinds))
        self._check()

    def _check(self) -> None:
        problems = []
        if not 2 <= self.min_players <= self.max_players <= len(self.colours):
            problems.append("player counts must satisfy 2 <= min <= max <= colours")
        if self.starting_gold < self.last_team_price:
            problems.append("starting gold is below the price of the last start team")
        if len(self.prizes) != len(self.finish_spaces):
            problems.append("one prize row is needed for every race")
        if any(space <= self.start_space for space in self.finish_spaces):
            problems.append("every finish space must lie beyond START")
        if self.lowest_space > self.start_space:
            problems.append("the lowest track space cannot be ahead of START")
        # The die names a display slot, so its faces are the display's slots.
        if self.display_size < 1:
            problems.append("a display needs at least one slot")
        # The most cards ever out of the deck: every display plus one auction
        # hand per bidder (or a whole lot, whichever is larger).
        needed = self.display_size * self.max_players + max(self.max_players, self.display_size)
        if len(self.card_kinds) < needed:
            problems.append(f"the deck needs at least {needed} cards")
        if len({b.code for b in self.bearers}) != len(self.bearers):
            problems.append("bearer codes must be distinct")
        if problems:
            raise ValueError(f"ruleset {self.name!r}: " + "; ".join(problems))

    @property
    def races(self) -> int:
        return len(self.finish_spaces)

    @property
    def lot_size(self) -> int:
        return self.display_size

    @property
    def die_faces(self) -> int:
        return self.display_size

    @property
    def deck_size(self) -> int:
        return len(self.card_kinds)

    def kind_of(self, card: int) -> BearerKind:
        return self.bearers[self.card_kinds[card]]

    def code_of(self, card: int) -> str:
        return self.bearers[self.card_kinds[card]].code

    def rank_of(self, card: int) -> int:
        """Worth of a card for the removal default: higher is better."""
        return self.card_kinds[card]

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "starting_gold": self.starting_gold,
            "bearers": [[b.code, b.move, b.push, b.count] for b in self.bearers],
            "display_size": self.display_size,
            "start_space": self.start_space,
            "lowest_space": self.lowest_space,
            "pond_spaces": list(self.pond_spaces),
            "finish_spaces": list(self.finish_spaces),
            "prizes": [list(row) for row in self.prizes],
            "last_team_price": self.last_team_price,
            "substitute_auctions": self.substitute_auctions,
            "roll_cap": self.roll_cap,
            "colours": list(self.colours),
        }

    # Any: the data is parsed JSON, whose shape only to_json vouches for.
    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ruleset:
        return cls(
            name=data["name"],
            min_players=data["min_players"],
            max_players=data["max_players"],
            starting_gold=data["starting_gold"],
            bearers=tuple(BearerKind(*b) for b in data["bearers"]),
            display_size=data["display_size"],
            start_space=data["start_space"],
            lowest_space=data["lowest_space"],
            pond_spaces=tuple(data["pond_spaces"]),
            finish_spaces=tuple(data["finish_spaces"]),
            prizes=tuple(tuple(row) for row in data["prizes"]),
            last_team_price=data["last_team_price"],
            substitute_auctions=data["substitute_auctions"],
            roll_cap=data["roll_cap"],
            colours=tuple(data["colours"]),
        )


CLASSIC = Ruleset(
    name="classic",
    min_players=3,
    max_players=6,
    starting_gold=50,
    bearers=(
        BearerKind("goof", move=-2, push=0, count=6),
        BearerKind("+1", move=1, push=0, count=8),
        BearerKind("+2", move=2, push=0, count=8),
        BearerKind("devil", move=2, push=2, count=6),
        BearerKind("+3", move=3, push=0, count=8),
        BearerKind("+5", move=5, push=0, count=4),
    ),
    display_size=4,
    start_space=0,
    lowest_space=-2,
    pond_spaces=(),
    finish_spaces=(15, 18, 21, 24, 27, 30),
    prizes=((20, 10, 5), (24, 12, 6), (28, 14, 7), (32, 16, 8), (36, 18, 9), (40, 20, 10)),
    last_team_price=10,
    substitute_auctions=2,
    roll_cap=500,
)

RULESETS: dict[str, Ruleset] = {CLASSIC.name: CLASSIC}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None
