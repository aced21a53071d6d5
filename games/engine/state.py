"""The immutable game state and who is to move in it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import ClassVar, Final, Literal, NamedTuple, Protocol

from .errors import IllegalAction, gettext_noop
from .ruleset import Ruleset

# The chance player's seat number in logs and in ``to_move``.
CHANCE: Final = -1
# A display slot emptied by the last-placed player's removal, until refilled.
HOLE: Final = -1

# Phases
Phase = Literal[
    "setup", "start_auction", "last_team", "race", "removal", "refill", "substitute_auction", "over"
]
AuctionKind = Literal["start_auction", "substitute_auction"]
SETUP: Final = "setup"
START_AUCTION: Final = "start_auction"
LAST_TEAM: Final = "last_team"
RACE: Final = "race"
REMOVAL: Final = "removal"
REFILL: Final = "refill"
SUBSTITUTE_AUCTION: Final = "substitute_auction"
OVER: Final = "over"

# Chair states in a race
ChairStatus = Literal["racing", "finished", "pond"]
RACING: Final = "racing"
FINISHED: Final = "finished"
POND: Final = "pond"

# What a race waits for
Awaiting = Literal["roll", "die", "push", "done"]
AWAIT_ROLL: Final = "roll"
AWAIT_DIE: Final = "die"
AWAIT_PUSH: Final = "push"
RACE_DONE: Final = "done"  # kept on the board through the break that follows

# Where a pending draw goes: ("face_up",), ("hand", seat) or ("slot", seat, index).
DrawTarget = (
    tuple[Literal["face_up"]] | tuple[Literal["hand"], int] | tuple[Literal["slot"], int, int]
)


class Auction(NamedTuple):
    kind: AuctionKind
    number: int  # 1-based within its kind (within one break for substitutes)
    bidders: tuple[int, ...]  # bidding order, opener first
    active: tuple[int, ...]  # still in, in bidding order
    face_up: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # drawn cards, parallel to ``bidders``
    high_bid: int | None
    high_bidder: int | None
    turn: int | None  # None while the lot is dealt
    discards_left: int  # how many more passers must discard their card

    def hand_of(self, seat: int) -> tuple[int, ...]:
        return self.hands[self.bidders.index(seat)]

    def lot(self) -> tuple[int, ...]:
        """The lot in dealt order: face-up cards, then hands from the opener on."""
        cards = self.face_up
        for hand in self.hands:
            cards += hand
        return cards


class Race(NamedTuple):
    number: int  # 1-based
    first: int  # the seat that began this race
    positions: tuple[int, ...]
    status: tuple[ChairStatus, ...]
    arrivals: tuple[int, ...]  # finishers in arrival order
    fallen: tuple[int, ...]  # pond chairs in the order they fell in
    turn: int
    rolls: int
    awaiting: Awaiting
    last_roll: tuple[int, int, int] | None  # (seat, face, card) of the latest roll


class RaceResult(NamedTuple):
    number: int
    ranking: tuple[int, ...]  # seats, first place first
    prizes: tuple[int, ...]  # gold paid to each place of ``ranking``
    pond: tuple[int, ...]  # seats that fell into the pond, in falling order
    gold: tuple[int, ...]  # every seat's gold once the prizes were paid


class State(NamedTuple):
    ruleset: Ruleset
    colours: tuple[str, ...]
    phase: Phase
    start_player: int | None
    gold: tuple[int, ...]
    displays: tuple[tuple[int, ...], ...]  # () while a seat has no team
    arrangeable: tuple[bool, ...]
    deck: tuple[int, ...]  # sorted: the order is chance's, decided at each draw
    discard: tuple[int, ...]  # sorted
    draws: tuple[DrawTarget, ...]  # pending draws, in drawing order
    auction: Auction | None
    last_opener: int | None  # opener of the latest start auction
    break_auctions: int  # substitute auctions settled in the current break
    race: Race | None
    results: tuple[RaceResult, ...]
    last_placed: int | None  # during the break after a race
    reshuffles: int

    @property
    def players(self) -> int:
        return len(self.colours)

    def seat_of(self, colour: str) -> int:
        try:
            return self.colours.index(colour)
        except ValueError:
            raise IllegalAction(gettext_noop("no %(colour)s chair plays in this game"), colour=colour) from None


def new_game(ruleset: Ruleset, colours: tuple[str, ...] | list[str]) -> State:
    """A game before the start player is drawn; seats are numbered in ``colours`` order."""
    colours = tuple(colours)
    if not ruleset.min_players <= len(colours) <= ruleset.max_players:
        raise IllegalAction(
            gettext_noop("%(name)s is for %(low)d to %(high)d players"),
            name=ruleset.name,
            low=ruleset.min_players,
            high=ruleset.max_players,
        )
    unknown = [c for c in colours if c not in ruleset.colours]
    if unknown or len(set(colours)) != len(colours):
        raise IllegalAction(
            gettext_noop("each seat needs its own colour from %(colours)s"), colours=ruleset.colours
        )
    n = len(colours)
    return State(
        ruleset=ruleset,
        colours=colours,
        phase=SETUP,
        start_player=None,
        gold=(ruleset.starting_gold,) * n,
        displays=((),) * n,
        arrangeable=(False,) * n,
        deck=tuple(range(ruleset.deck_size)),
        discard=(),
        draws=(),
        auction=None,
        last_opener=None,
        break_auctions=0,
        race=None,
        results=(),
        last_placed=None,
        reshuffles=0,
    )


def auction_key(state: State) -> str | None:
    """Names the auction under way (None between auctions), so that what is
    meant for one auction can end with it."""
    auction = state.auction
    if auction is None:
        return None
    return f"{auction.kind}:{len(state.results)}:{auction.number}"


def to_move(state: State) -> int | None:
    """The seat to decide, CHANCE, or None once the game is over."""
    if state.draws:
        return CHANCE
    phase = state.phase
    if phase == RACE:
        race = state.race
        assert race is not None  # set by the first race, never cleared
        return CHANCE if race.awaiting == AWAIT_DIE else race.turn
    if phase in (START_AUCTION, SUBSTITUTE_AUCTION):
        auction = state.auction
        assert auction is not None  # cleared only inside a step, never between steps
        return auction.turn
    if phase == REMOVAL:
        return state.last_placed
    if phase == SETUP:
        return CHANCE
    return None


def clockwise_from(seat: int, players: int) -> tuple[int, ...]:
    return tuple((seat + step) % players for step in range(players))


def arch_race(state: State) -> int:
    """The race whose finish space the arch marks (0 before the first race)."""
    return state.race.number if state.race is not None else 0


def standings(state: State) -> list[int]:
    """Seats by most gold; ties by the better place in the last race run."""
    last = state.results[-1].ranking if state.results else ()
    place = {seat: index for index, seat in enumerate(last)}
    return sorted(range(state.players), key=lambda s: (-state.gold[s], place.get(s, len(last)), s))


class _Indexed(Protocol):
    """What _quick_replace needs of the classes it is installed on below."""

    _index: ClassVar[dict[str, int]]

    def __iter__(self) -> Iterator[object]: ...


def _quick_replace(self: _Indexed, **changes: object) -> tuple[object, ...]:
    # collections.namedtuple's _replace goes through _make and a dict of all
    # fields; this direct copy roughly halves the cost of every engine step.
    # Callers are checked against each class's own _replace signature, which
    # this one stands in for at run time.
    values = [*self]
    index = self._index
    for name in changes:
        values[index[name]] = changes[name]
    return _new_tuple(self.__class__, values)


# Loosely typed: tuple.__new__'s stub wants a tuple class, and a Protocol
# cannot say that self's class is one.
_new_tuple: Callable[..., tuple[object, ...]] = tuple.__new__


for _cls in (State, Auction, Race):
    # setattr: a checker allows neither assigning to a method nor adding an
    # attribute that the class does not declare.
    setattr(_cls, "_index", {name: i for i, name in enumerate(_cls._fields)})  # noqa: B010
    setattr(_cls, "_replace", _quick_replace)  # noqa: B010
