"""Standing orders: what a player lets the server decide for them at once.

    {"auto_roll": true,                       roll as soon as it is my turn
     "bid_limit": 12, "bid_auction": "...",   in that auction, bid up to 12
                                              (no bid_auction: in every auction)
     "devil": "leader" | "ahead" | "none",    whom my Devil pushes
     "removal": "default"}                    my removals by the default rule
"""

from __future__ import annotations

from games import engine
from games.engine.defaults import default_push_target, default_removal
from games.engine.state import RACING

DEVIL_POLICIES = ("leader", "ahead", "none")


# Names the auction under way, so a bid limit set for it ends with it.
auction_key = engine.auction_key


def order_action(orders: dict, state: engine.State) -> engine.Action | None:
    """The action the mover's standing orders dictate now, or None."""
    if not orders:
        return None
    kind = engine.decision_kind(state)
    if kind == "roll" and orders.get("auto_roll"):
        return engine.Roll()
    if kind == "bid":
        return _bid(orders, state)
    if kind == "push" and orders.get("devil") in DEVIL_POLICIES:
        return engine.Push(_push_target(orders["devil"], state))
    if kind == "remove" and orders.get("removal") == "default":
        return default_removal(state)
    return None


def _bid(orders: dict, state: engine.State) -> engine.Action | None:
    limit = orders.get("bid_limit")
    scope = orders.get("bid_auction")
    if limit is None or (scope is not None and scope != auction_key(state)):
        return None
    auction = state.auction
    seat = engine.to_move(state)
    if auction is None or seat is None:
        raise ValueError("a bid is decided with an auction under way and a seat to move")
    lowest = engine.lowest_bid(auction.high_bid)
    if lowest <= min(limit, state.gold[seat]):
        return engine.Bid(lowest)
    return engine.Pass()


def _push_target(policy: str, state: engine.State) -> str | None:
    if policy == "leader":
        return default_push_target(state)
    if policy == "none":
        return None
    race = state.race
    if race is None:
        raise ValueError("a push is decided during a race")
    mine = race.positions[race.turn]
    ahead = [
        s
        for s in range(state.players)
        if s != race.turn and race.status[s] == RACING and race.positions[s] > mine
    ]
    if not ahead:
        return None
    nearest = min(race.positions[s] for s in ahead)
    pusher_order = [(race.turn + step) % state.players for step in range(1, state.players)]
    return state.colours[next(s for s in pusher_order if s in ahead and race.positions[s] == nearest)]


def orders_clean(raw: dict, state: engine.State | None) -> dict:
    """Keep only known keys with sound values. A limit for "this auction"
    is kept only if ``raw["auction"]`` (the auction the player's form was
    shown for; absent for callers without a form) is the one under way: a
    page left open from an auction that has ended must not arm its limit for
    the next one."""
    orders: dict = {}
    if raw.get("auto_roll"):
        orders["auto_roll"] = True
    limit = raw.get("bid_limit")
    if isinstance(limit, int) and 0 <= limit <= 10**6:
        if raw.get("bid_every"):
            orders["bid_limit"] = limit
        elif state is not None and auction_key(state) and raw.get("auction", auction_key(state)) == auction_key(state):
            orders["bid_limit"] = limit
            orders["bid_auction"] = auction_key(state)
    if raw.get("devil") in DEVIL_POLICIES:
        orders["devil"] = raw["devil"]
    if raw.get("removal") == "default":
        orders["removal"] = "default"
    return orders
