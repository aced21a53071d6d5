"""The table as a few plain lines, for the text part of emails."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.narrate import Names, card_name, colour_name


def board_text(observation: Mapping[str, Any], names: Names) -> str:
    """The table as a few plain lines, for the text part of emails."""
    def name(colour: str) -> str:
        return names.get(colour) or colour_name(colour)

    lines = []
    race = observation["race"]
    if race:
        lines.append(_("Race %(n)d, finish at %(finish)d:") % {"n": race["number"], "finish": race["finish"]})
        for colour, chair in race["chairs"].items():
            if chair["status"] == "pond":
                where = _("in the shell pond")
            elif chair["status"] == "finished":
                where = _("finished")
            else:
                where = _("space %(n)d") % {"n": chair["position"]}
            lines.append(f"  {name(colour)}: {where}")
    for player in observation["players"]:
        cards = " ".join(card_name(card["code"]) if card else "-" for card in player["display"]) or _("no team yet")
        lines.append(
            _("%(who)s: %(gold)d gold; bearers %(cards)s")
            % {"who": name(player["colour"]), "gold": player["gold"], "cards": cards}
        )
    auction = observation["auction"]
    if auction:
        high = auction["high_bid"]
        lines.append(
            _("Auction: high bid %(bid)s; still in: %(who)s")
            % {
                "bid": "-" if high is None else f"{high} ({name(auction['high_bidder'])})",
                "who": ", ".join(name(c) for c in auction["active"]),
            }
        )
        if auction["my_cards"]:
            secret = " ".join(card_name(c["code"]) for c in auction["my_cards"])
            lines.append(_("Your secret cards: %(cards)s") % {"cards": secret})
    return "\n".join(lines)
