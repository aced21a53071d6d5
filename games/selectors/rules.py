"""The numbers of the rules page, taken from one ruleset, so that the page
can never say something the engine does not do."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language_info
from django.utils.translation import gettext as _

from games import engine, notation_words
from games.board.rules_svg import bearer_card_svg, track_sketch_svg
from games.narrate import card_name

DEFAULT_RULESET = engine.CLASSIC.name


def ruleset_names() -> list[str]:
    return sorted(engine.RULESETS)


def _plural_card_name(code: str) -> str:
    """The rules page's "2 Goofs": a whole word, not the name with an "s"."""
    return {"goof": _("Goofs"), "devil": _("Devils")}.get(code) or card_name(code)


def _bearer(kind: engine.BearerKind) -> dict[str, Any]:
    label = card_name(kind.code)
    return {
        "code": kind.code,
        "label": label,
        # The name in the number the sentence needs ("1 Goof", "2 Goofs"): one
        # placeholder serves both plural forms of the sentence.
        "named": label if kind.count == 1 else _plural_card_name(kind.code),
        "move": kind.move,
        "back": -kind.move,
        "push": kind.push,
        "count": kind.count,
        "svg": bearer_card_svg(label=label, move=kind.move, push=kind.push, count=kind.count),
    }


def _example_meanings() -> dict[str, str]:
    return {
        "bid 12": _("bid 12 gold in an auction"),
        "pass": _("pass: leave this auction"),
        "roll": _("roll the die"),
        "push blue": _("after a Devil: push blue's chair back"),
        "push none": _("after a Devil: push nobody"),
        "remove red:3 blue:1 green:4": _(
            "after a race: send away the bearer in slot 3 of red's team, slot 1 of blue's and slot 4 of green's"
        ),
    }


def reply_notation() -> dict[str, Any]:
    """The notation of replies by email in every language it is read in,
    side by side, from the words the inbound service reads."""
    languages = notation_words.LANGUAGES
    meanings = _example_meanings()
    words = [*notation_words.VERBS, "none"]
    return {
        # Each language in its own name, and each word marked with its
        # language, so a screen reader says "würfeln" as German.
        "languages": [{"code": code, "name": get_language_info(code)["name_local"]} for code in languages],
        "examples": [
            {
                "meaning": meanings.get(example, ""),
                "words": [{"code": code, "text": notation_words.in_language(example, code)} for code in languages],
            }
            for example in notation_words.EXAMPLES
        ],
        "colours": [
            [{"code": code, "text": notation_words.word_in(colour, code)} for code in languages]
            for colour in notation_words.COLOURS
        ],
        "also_read": [
            {"code": code, "shown": notation_words.word_in(word, code), "also": also}
            for code in languages
            for word in words
            if (also := notation_words.also_read(word, code))
        ],
    }


def rules_page(name: str | None) -> dict[str, Any] | None:
    """Everything the rules page shows of the ruleset ``name`` (the default
    one when empty), or None when no ruleset has that name."""
    ruleset = engine.RULESETS.get(name or DEFAULT_RULESET)
    if ruleset is None:
        return None
    bearers = [_bearer(kind) for kind in ruleset.bearers]
    places = max(len(row) for row in ruleset.prizes)
    races = [
        {"number": number, "finish": finish, "prizes": list(prizes) + [None] * (places - len(prizes))}
        for number, (finish, prizes) in enumerate(zip(ruleset.finish_spaces, ruleset.prizes, strict=True), start=1)
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
        "notation": reply_notation(),
        "track_svg": track_sketch_svg(
            start=ruleset.start_space,
            lowest=ruleset.lowest_space,
            pond_spaces=ruleset.pond_spaces,
            first_finish=ruleset.finish_spaces[0],
        ),
    }
