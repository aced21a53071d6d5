"""The numbers of the rules page, taken from one ruleset, so that the page
can never say something the engine does not do."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import engine
from games.board.rules_svg import bearer_card_svg, track_sketch_svg

DEFAULT_RULESET = engine.CLASSIC.name


def ruleset_names() -> list[str]:
    return sorted(engine.RULESETS)


def _bearer_label(code: str) -> str:
    return {"goof": _("Goof"), "devil": _("Devil")}.get(code, code)


def _bearer(kind: engine.BearerKind) -> dict:
    label = _bearer_label(kind.code)
    return {
        "code": kind.code,
        "label": label,
        "move": kind.move,
        "back": -kind.move,
        "push": kind.push,
        "count": kind.count,
        "svg": bearer_card_svg(label=label, move=kind.move, push=kind.push, count=kind.count),
    }


def rules_page(name: str | None) -> dict | None:
    """Everything the rules page shows of the ruleset ``name`` (the default
    one when empty), or None when no ruleset has that name."""
    ruleset = engine.RULESETS.get(name or DEFAULT_RULESET)
    if ruleset is None:
        return None
    bearers = [_bearer(kind) for kind in ruleset.bearers]
    places = max(len(row) for row in ruleset.prizes)
    races = [
        {"number": number, "finish": finish, "prizes": list(prizes) + [None] * (places - len(prizes))}
        for number, (finish, prizes) in enumerate(zip(ruleset.finish_spaces, ruleset.prizes), start=1)
    ]
    return {
        "name": ruleset.name,
        "names": ruleset_names(),
        "min_players": ruleset.min_players,
        "max_players": ruleset.max_players,
        "starting_gold": ruleset.starting_gold,
        "deck_size": ruleset.deck_size,
        "bearers": bearers,
        "plain_bearers": [b for b in bearers if b["move"] > 0 and not b["push"]],
        "goofs": [b for b in bearers if b["move"] < 0],
        "devils": [b for b in bearers if b["push"]],
        "display_size": ruleset.display_size,
        "lot_size": ruleset.lot_size,
        "die_faces": ruleset.die_faces,
        "start_space": ruleset.start_space,
        "lowest_space": ruleset.lowest_space,
        "pond_spaces": list(ruleset.pond_spaces),
        "race_count": ruleset.races,
        "last_race": ruleset.races,
        "breaks": ruleset.races - 1,
        "races": races,
        "places": list(range(1, places + 1)),
        "last_team_price": ruleset.last_team_price,
        "substitute_auctions": ruleset.substitute_auctions,
        "roll_cap": ruleset.roll_cap,
        "track_svg": track_sketch_svg(
            start=ruleset.start_space,
            lowest=ruleset.lowest_space,
            pond_spaces=ruleset.pond_spaces,
            first_finish=ruleset.finish_spaces[0],
        ),
    }
