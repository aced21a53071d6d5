"""The immutable game state and who is to move in it."""

from __future__ import annotations

from typing import NamedTuple

from .errors import IllegalAction, gettext_noop
from .ruleset import Ruleset

# The chance player's seat number in logs and in ``to_move``.
CHANCE = -1
# A display slot emptied by the last-placed player's removal, until refilled.
HOLE = -1

# Phases
SETUP = "setup"
START_AUCTION = "start_auction"
LAST_TEAM = "last_team"
RACE = "race"
REMOVAL = "removal"
REFILL = "refill"
SUBSTITUTE_AUCTION = "substitute_auction"
OVER = "over"

# Chair states in a race
RACING = "racing"
FINISHED = "finished"
POND = "pond"

# What a race waits for
AWAIT_ROLL = "roll"
AWAIT_DIE = "die"
AWAIT_PUSH = "push"
RACE_DONE = "done"  # kept on the board through the break that follows


class Auction(NamedTuple):
    kind: str  # START_AUCTION or SUBSTITUTE_AUCTION
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
    status: tuple[str, ...]
    arrivals: tuple[int, ...]  # finishers in arrival order
    fallen: tuple[int, ...]  # pond chairs in the order they fell in
    turn: int
    rolls: int
    awaiting: str
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
    phase: str
    start_player: int | None
    gold: tuple[int, ...]
    displays: tuple[tuple[int, ...], ...]  # () while a seat has no team
    arrangeable: tuple[bool, ...]
    deck: tuple[int, ...]  # sorted: the order is chance's, decided at each draw
    discard: tuple[int, ...]  # sorted
    # Pending draws, each a target: ("face_up",), ("hand", seat) or ("slot", seat, index)
    draws: tuple[tuple[int | str, ...], ...]
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
            gettext_noop("each seat needs its own colour from %(colours)s"), colours=", ".join(ruleset.colours)
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


def to_move(state: State) -> int | None:
    """The seat to decide, CHANCE, or None once the game is over."""
    if state.draws:
        return CHANCE
    phase = state.phase
    if phase == RACE:
        race = state.race
        return CHANCE if race.awaiting == AWAIT_DIE else race.turn
    if phase == START_AUCTION or phase == SUBSTITUTE_AUCTION:
        return state.auction.turn
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


def _quick_replace(self, **changes):
    # collections.namedtuple's _replace goes through _make and a dict of all
    # fields; this direct copy roughly halves the cost of every engine step.
    values = [*self]
    index = self._index
    for name in changes:
        values[index[name]] = changes[name]
    return _new_tuple(self.__class__, values)


_new_tuple = tuple.__new__


for _cls in (State, Auction, Race):
    _cls._index = {name: i for i, name in enumerate(_cls._fields)}
    _cls._replace = _quick_replace
