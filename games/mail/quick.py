"""The likely decisions a turn email offers as links. Each link opens a
confirmation page with one button (games/web/confirm.py): opening it decides
nothing, since mail scanners open every link in a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from games.engine import lowest_bid

Link = dict[str, Any]
# Builds one link's facts from its action and fields.
LinkMaker = Callable[..., Link]

# Besides the lowest bid: a little more, and clearly more.
BID_STEPS = (0, 2, 5)


def confirm_href(confirm_url: str, version: int, action: str, **fields: Any) -> str:
    return confirm_url + "?" + urlencode({"version": version, "action": action, **fields})


def quick_decisions(context: dict[str, Any]) -> list[dict[str, Any]]:
    """Facts for one link per likely decision, in the order the email lists
    them; worded by the template in the seat's language. Empty for a
    decision with too many choices to list (the removal) or no decision."""
    observation = context.get("observation")
    confirm_url = context.get("confirm_url")
    version = context.get("decision_version")
    if not observation or not confirm_url or version is None:
        return []
    viewer = observation.get("viewer")
    kind = observation.get("decision")
    if viewer is None or observation.get("to_move") != viewer:
        return []

    def link(action: str, **fields: Any) -> Link:
        return {"action": action, **fields, "href": confirm_href(confirm_url, version, action, **fields)}

    if kind == "bid":
        return _bids(observation, viewer, link)
    if kind == "roll":
        return [link("roll")]
    if kind == "push":
        return _pushes(observation, viewer, context.get("names") or {}, link)
    return []


def _bids(observation: dict[str, Any], viewer: str, link: LinkMaker) -> list[Link]:
    auction = observation.get("auction") or {}
    gold = next((p["gold"] for p in observation["players"] if p["colour"] == viewer), 0)
    lowest = lowest_bid(auction.get("high_bid"))
    amounts = sorted({lowest + step for step in BID_STEPS if lowest + step <= gold})
    return [link("bid", amount=amount) for amount in amounts] + [link("pass")]


def _pushes(observation: dict[str, Any], viewer: str, names: dict[str, str], link: LinkMaker) -> list[Link]:
    race = observation.get("race") or {}
    chairs = race.get("chairs") or {}
    racing = [
        p["colour"]
        for p in observation["players"]
        if p["colour"] != viewer and chairs.get(p["colour"], {}).get("status") == "racing"
    ]
    targets = [
        link("push", target=colour) | {"name": names.get(colour, ""), "space": chairs[colour]["position"]}
        for colour in racing
    ]
    return targets + [link("push", target="none")]
