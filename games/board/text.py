"""The table as a few plain lines, for the text part of emails, and as rows
for the HTML part."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.narrate import Names, card_name, colour_name


def board_text(observation: Mapping[str, Any], names: Names) -> str:
    """The table as a few plain lines, for the text part of emails."""
    table = board_table(observation, names)
    lines = []
    if table["race"]:
        lines.append(table["race"])
        lines += [f"  {chair['who']}: {chair['where']}" for chair in table["chairs"]]
    lines += [
        _("%(who)s: %(gold)d gold; bearers %(cards)s") % player for player in table["players"]
    ]
    return "\n".join(lines + table["auction"])


def board_table(observation: Mapping[str, Any], names: Names) -> dict[str, Any]:
    """The table's facts in rows, for the HTML part: a table is read out by
    its headings, and lines up in any font."""
    def name(colour: str) -> str:
        return names.get(colour) or colour_name(colour)

    race = observation["race"]
    chairs = []
    if race:
        for colour, chair in race["chairs"].items():
            if chair["status"] == "pond":
                where = _("in the shell pond")
            elif chair["status"] == "finished":
                where = _("finished")
            else:
                where = _("space %(n)d") % {"n": chair["position"]}
            chairs.append({"who": name(colour), "where": where})
    players = [
        {
            "who": name(player["colour"]),
            "gold": player["gold"],
            "cards": " ".join(card_name(card["code"]) if card else "-" for card in player["display"])
            or _("no team yet"),
        }
        for player in observation["players"]
    ]
    return {
        "race": _("Race %(n)d, finish at %(finish)d:") % {"n": race["number"], "finish": race["finish"]}
        if race
        else "",
        "chairs": chairs,
        "players": players,
        "auction": _auction(observation, name),
    }


def _auction(observation: Mapping[str, Any], name: Callable[[str], str]) -> list[str]:
    auction = observation["auction"]
    if not auction:
        return []
    high = auction["high_bid"]
    lines = [
        _("Auction: high bid %(bid)s; still in: %(who)s")
        % {
            "bid": "-" if high is None else f"{high} ({name(auction['high_bidder'])})",
            "who": ", ".join(name(c) for c in auction["active"]),
        }
    ]
    if auction["my_cards"]:
        secret = " ".join(card_name(c["code"]) for c in auction["my_cards"])
        lines.append(_("Your secret cards: %(cards)s") % {"cards": secret})
    return lines
