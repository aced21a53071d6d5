"""Auctions: forming the lot, bidding, and settling."""

from __future__ import annotations

from .errors import IllegalAction, gettext_noop
from .state import (
    HOLE,
    START_AUCTION,
    SUBSTITUTE_AUCTION,
    Auction,
    AuctionKind,
    DrawTarget,
    State,
    clockwise_from,
)


def ensure_deck(state: State) -> State:
    """Shuffle the discard pile into a deck that is empty when a card must be drawn."""
    if state.draws and not state.deck:
        if not state.discard:
            raise IllegalAction(gettext_noop("no card is left to draw"))
        return state._replace(deck=state.discard, discard=(), reshuffles=state.reshuffles + 1)
    return state


def open_auction(state: State, kind: AuctionKind, number: int, opener: int, bidders: set[int]) -> State:
    order = tuple(s for s in clockwise_from(opener, state.players) if s in bidders)
    k = len(order)
    lot_size = state.ruleset.lot_size
    if k >= lot_size:
        face_up, per_bidder, discards = 0, 1, k - lot_size
    else:
        face_up, per_bidder, discards = lot_size % k, lot_size // k, 0
    draws: tuple[DrawTarget, ...] = (("face_up",),) * face_up + tuple(
        ("hand", s) for s in order for _ in range(per_bidder)
    )
    auction = Auction(
        kind=kind,
        number=number,
        bidders=order,
        active=order,
        face_up=(),
        hands=((),) * k,
        high_bid=None,
        high_bidder=None,
        turn=None,
        discards_left=discards,
    )
    return ensure_deck(state._replace(phase=kind, auction=auction, draws=draws))


# Everything below runs while an auction is open: its asserts only tell the
# type checker that state.auction is set.


def start_bidding(state: State) -> State:
    auction = state.auction
    assert auction is not None
    return state._replace(auction=auction._replace(turn=auction.bidders[0]))


def lowest_bid(high_bid: int | None) -> int:
    """The lowest bid allowed in an auction whose highest bid so far is
    ``high_bid`` (None: no bid yet)."""
    return 0 if high_bid is None else high_bid + 1


def bid(state: State, seat: int, amount: int) -> State:
    auction = state.auction
    assert auction is not None
    lowest = lowest_bid(auction.high_bid)
    if amount < lowest:
        raise IllegalAction(gettext_noop("a bid must be at least %(lowest)d"), lowest=lowest)
    if amount > state.gold[seat]:
        raise IllegalAction(gettext_noop("you have only %(gold)d gold"), gold=state.gold[seat])
    auction = auction._replace(high_bid=amount, high_bidder=seat)
    return _next_turn(state._replace(auction=auction), seat)


def pass_(state: State, seat: int) -> State:
    return _next_turn(_drop_out(state, seat), seat)


def _drop_out(state: State, seat: int) -> State:
    auction = state.auction
    assert auction is not None
    active = tuple(s for s in auction.active if s != seat)
    if auction.discards_left:
        index = auction.bidders.index(seat)
        hands = auction.hands[:index] + ((),) + auction.hands[index + 1 :]
        state = state._replace(discard=tuple(sorted(state.discard + auction.hands[index])))
        auction = auction._replace(hands=hands, discards_left=auction.discards_left - 1)
    return state._replace(auction=auction._replace(active=active))


def _next_turn(state: State, after: int) -> State:
    while True:
        auction = state.auction
        assert auction is not None
        if len(auction.active) == 1:
            last = auction.active[0]
            if auction.high_bid is not None:
                return _sell(state, last, auction.high_bid)
            if auction.kind == START_AUCTION:
                return _sell(state, last, 0)
            # A substitute auction's last bidder still decides, even unbid.
            return state._replace(auction=auction._replace(turn=last))
        if not auction.active:
            return _discard_lot(state)
        order = auction.bidders
        start = order.index(after)
        following = order[start + 1 :] + order[: start + 1]
        turn = next(s for s in following if s in auction.active)
        if auction.high_bid is not None and state.gold[turn] <= auction.high_bid:
            # Cannot raise: passes without being asked.
            state = _drop_out(state, turn)
            after = turn
            continue
        return state._replace(auction=auction._replace(turn=turn))


def _sell(state: State, winner: int, price: int) -> State:
    auction = state.auction
    assert auction is not None
    lot = auction.lot()
    old = tuple(card for card in state.displays[winner] if card != HOLE)
    gold = list(state.gold)
    gold[winner] -= price
    displays = list(state.displays)
    displays[winner] = lot
    arrangeable = list(state.arrangeable)
    arrangeable[winner] = True
    return _close(
        state._replace(
            gold=tuple(gold),
            displays=tuple(displays),
            arrangeable=tuple(arrangeable),
            discard=tuple(sorted(state.discard + old)),
        )
    )


def _discard_lot(state: State) -> State:
    auction = state.auction
    assert auction is not None
    return _close(state._replace(discard=tuple(sorted(state.discard + auction.lot()))))


def _close(state: State) -> State:
    auction = state.auction
    assert auction is not None
    if auction.kind == SUBSTITUTE_AUCTION:
        state = state._replace(break_auctions=state.break_auctions + 1)
    return state._replace(auction=None)
