"""The engine's front door: what may be done, and doing it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Literal, cast, overload

from . import auction as auctions
from . import race as races
from .actions import (
    Action,
    Arrange,
    Bid,
    Die,
    Draw,
    Pass,
    Push,
    Remove,
    Roll,
    StartPlayer,
)
from .errors import IllegalAction, gettext_noop
from .flow import advance
from .state import (
    AWAIT_DIE,
    AWAIT_PUSH,
    AWAIT_ROLL,
    CHANCE,
    HOLE,
    OVER,
    RACE,
    RACING,
    REMOVAL,
    SETUP,
    START_AUCTION,
    SUBSTITUTE_AUCTION,
    Awaiting,
    State,
    to_move,
)

DecisionKind = Literal["bid", "roll", "push", "remove", "chance"]

_ROLL = Roll()
_ROLLS = (_ROLL,)
_PASS = Pass()


def decision_kind(state: State) -> DecisionKind | None:
    """What the seat to move decides: "bid", "roll", "push", "remove" (or
    "chance", or None when the game is over)."""
    if state.draws:
        return "chance"
    phase = state.phase
    if phase == RACE:
        race = state.race
        assert race is not None  # set by the first race, never cleared
        return _RACE_DECISIONS[race.awaiting]
    if phase in (START_AUCTION, SUBSTITUTE_AUCTION):
        auction = state.auction
        assert auction is not None  # cleared only inside a step, never between steps
        return "bid" if auction.turn is not None else None
    if phase == REMOVAL:
        return "remove"
    if phase == SETUP:
        return "chance"
    return None


_RACE_DECISIONS: dict[Awaiting, DecisionKind] = {
    AWAIT_ROLL: "roll",
    AWAIT_PUSH: "push",
    AWAIT_DIE: "chance",
}


def chance_outcomes(state: State) -> Sequence[Action]:
    """The equally likely outcomes when chance is to move (else empty)."""
    if decision_kind(state) != "chance":
        return []
    if state.draws:
        return [_draw_of(card) for card in state.deck]
    if state.phase == SETUP:
        return [StartPlayer(colour) for colour in state.colours]
    return _dice(state.ruleset.die_faces)


@cache
def _draw_of(card: int) -> Draw:
    # Actions are immutable values, so playouts can share one per outcome.
    return Draw(card)


@cache
def _dice(faces: int) -> tuple[Die, ...]:
    return tuple(Die(face) for face in range(1, faces + 1))


def legal_actions(state: State) -> Sequence[Action]:
    """Every legal action of whoever is to move (chance outcomes for chance).

    Arranging is left out: it is never anyone's turn to arrange (see can_arrange)."""
    if state.phase == RACE and not state.draws:
        # Rolls and dice are most of a game: answer them first.
        assert state.race is not None  # set by the first race, never cleared
        awaiting = state.race.awaiting
        if awaiting == AWAIT_DIE:
            return _dice(state.ruleset.die_faces)
        if awaiting == AWAIT_ROLL:
            return _ROLLS
    kind = decision_kind(state)
    if kind is None:
        return []
    if kind == "chance":
        return chance_outcomes(state)
    seat = to_move(state)
    assert seat is not None  # a seat decides: kind is neither None nor "chance"
    if kind == "bid":
        auction = state.auction
        assert auction is not None  # kind "bid" means an auction is open
        return _BidChoices(auctions.lowest_bid(auction.high_bid), state.gold[seat])
    if kind == "roll":
        return [_ROLL]
    if kind == "push":
        race = state.race
        assert race is not None  # kind "push" means a race is on
        targets = [
            state.colours[s]
            for s in range(state.players)
            if s != seat and race.status[s] == RACING
        ]
        return [Push(c) for c in targets] + [Push(None)]
    return _RemovalChoices(state)


class _LazyChoices(Sequence[Action]):
    """A list of actions built one at a time on demand."""

    _count = 0

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._item(index)

    def _item(self, index: int) -> Action:
        raise NotImplementedError


class _BidChoices(_LazyChoices):
    """Pass, then every bid from ``lowest`` to ``highest``."""

    def __init__(self, lowest: int, highest: int) -> None:
        self._lowest = lowest
        self._count = 1 + max(0, highest - lowest + 1)

    def _item(self, index: int) -> Action:
        return _PASS if index == 0 else Bid(self._lowest + index - 1)


class _RemovalChoices(_LazyChoices):
    """Every way to name one slot per display (size ** players of them): six
    players would otherwise mean 4096 objects per break."""

    def __init__(self, state: State) -> None:
        self._colours = sorted(state.colours, key=state.ruleset.colours.index)
        self._size = state.ruleset.display_size
        self._count = self._size ** len(self._colours)

    def _item(self, index: int) -> Action:
        picks = []
        for colour in reversed(self._colours):
            index, slot = divmod(index, self._size)
            picks.append((colour, slot + 1))
        return Remove(tuple(reversed(picks)))


def apply(state: State, seat: int, action: Action) -> State:
    """The state after ``seat`` (or CHANCE) takes ``action``; the input is never changed."""
    action_type = type(action)
    if state.phase == RACE and not state.draws:
        # Rolls and dice are most of a game: answer them before the general path.
        race = state.race
        assert race is not None  # set by the first race, never cleared
        # The casts repeat what ``action_type is ...`` has just established.
        if action_type is Die and race.awaiting == AWAIT_DIE and seat == CHANCE:
            return races.die(state, cast(Die, action).face)
        if action_type is Roll and race.awaiting == AWAIT_ROLL and seat == race.turn:
            return races.roll(state)
    if action_type is Arrange:
        return arrange(state, seat, cast(Arrange, action))
    kind = decision_kind(state)
    if kind is None:
        raise IllegalAction(
            gettext_noop("the game is over") if state.phase == OVER else gettext_noop("nobody is to move")
        )
    mover = CHANCE if kind == "chance" else to_move(state)
    if seat != mover:
        raise IllegalAction(
            gettext_noop("it is not your turn") if mover != CHANCE else gettext_noop("chance is to move")
        )
    step = _STEPS.get((action_type, kind))
    if step is None or (kind == "chance" and action_type is not _chance_type(state)):
        raise IllegalAction(_WAITING.get(kind, _WAITING[None]))
    return advance(step(state, seat, action))


def _chance_type(state: State) -> type[Draw | StartPlayer | Die]:
    if state.draws:
        return Draw
    return StartPlayer if state.phase == SETUP else Die


def _push(state: State, seat: int, action: Push) -> State:
    return races.push(state, None if action.colour is None else state.seat_of(action.colour))


def _remove(state: State, seat: int, action: Remove) -> State:
    return races.remove(state, {state.seat_of(colour): slot - 1 for colour, slot in action.slots})


# (action type, decision kind) -> step; a pair not listed is illegal. A step
# is only ever given an action of its key's type, which a dict's value type
# cannot express: the casts state it.
_STEPS: dict[tuple[type[Action], DecisionKind], Callable[[State, int, Action], State]] = {
    (Die, "chance"): lambda state, seat, action: races.die(state, cast(Die, action).face),
    (Roll, "roll"): lambda state, seat, action: races.roll(state),
    (Draw, "chance"): lambda state, seat, action: _draw(state, cast(Draw, action).card),
    (Bid, "bid"): lambda state, seat, action: auctions.bid(state, seat, cast(Bid, action).amount),
    (Pass, "bid"): lambda state, seat, action: auctions.pass_(state, seat),
    (Push, "push"): lambda state, seat, action: _push(state, seat, cast(Push, action)),
    (Remove, "remove"): lambda state, seat, action: _remove(state, seat, cast(Remove, action)),
    (StartPlayer, "chance"): lambda state, seat, action: state._replace(
        start_player=state.seat_of(cast(StartPlayer, action).colour)
    ),
}


_WAITING: dict[DecisionKind | None, str] = {
    "bid": gettext_noop("that is not a move now: the game waits for a bid or a pass"),
    "roll": gettext_noop("that is not a move now: the game waits for a roll"),
    "push": gettext_noop("that is not a move now: the game waits for the Devil's push"),
    "remove": gettext_noop("that is not a move now: the game waits for the last-placed player's removals"),
    "chance": gettext_noop("that is not a move now: the game waits for chance"),
    None: gettext_noop("that is not a move now: the game waits for nothing"),
}


def _draw(state: State, card: int) -> State:
    if card not in state.deck:
        raise IllegalAction(gettext_noop("card %(card)d is not in the deck"), card=card)
    target, rest = state.draws[0], state.draws[1:]
    deck = tuple(c for c in state.deck if c != card)
    state = state._replace(deck=deck, draws=rest)
    # target[0] is tested directly, not through a local, so that the checker
    # narrows target to the matching kind of draw.
    if target[0] == "face_up":
        auction = state.auction
        assert auction is not None  # lots are dealt into an open auction
        return state._replace(auction=auction._replace(face_up=auction.face_up + (card,)))
    if target[0] == "hand":
        auction = state.auction
        assert auction is not None  # lots are dealt into an open auction
        index = auction.bidders.index(target[1])
        hands = list(auction.hands)
        hands[index] += (card,)
        return state._replace(auction=auction._replace(hands=tuple(hands)))
    seat, slot = target[1], target[2]
    display = state.displays[seat]
    displays = list(state.displays)
    displays[seat] = display[:slot] + (card,) + display[slot + 1 :]
    return state._replace(displays=tuple(displays))


def can_arrange(state: State, seat: int) -> bool:
    return (
        state.phase != OVER
        and 0 <= seat < state.players
        and state.arrangeable[seat]
        and bool(state.displays[seat])
        and HOLE not in state.displays[seat]
    )


def arrange(state: State, seat: int, action: Arrange) -> State:
    if not can_arrange(state, seat):
        raise IllegalAction(gettext_noop("your team can be arranged only after you place it, until the race starts"))
    display = state.displays[seat]
    codes = [state.ruleset.code_of(card) for card in display]
    if sorted(action.codes) != sorted(codes):
        raise IllegalAction(gettext_noop("an arrangement must use exactly the bearers of your display"))
    unused = list(display)
    ordered = []
    for code in action.codes:
        card = next(c for c in unused if state.ruleset.code_of(c) == code)
        unused.remove(card)
        ordered.append(card)
    displays = list(state.displays)
    displays[seat] = tuple(ordered)
    return state._replace(displays=tuple(displays))


def is_over(state: State) -> bool:
    return state.phase == OVER

