"""Engine events as plain, translatable sentences ("Blue bid 12")."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

COLOUR_NAMES = {
    "red": gettext_lazy("Red"),
    "yellow": gettext_lazy("Yellow"),
    "green": gettext_lazy("Green"),
    "blue": gettext_lazy("Blue"),
    "white": gettext_lazy("White"),
    "black": gettext_lazy("Black"),
}

BEARER_NAMES = {
    "goof": gettext_lazy("the Goof"),
    "devil": gettext_lazy("the Devil"),
}

# The cards as a list or a slot names them; a plain mover is its number
# ("+2"), the same in every language.
CARD_NAMES = {
    "goof": gettext_lazy("Goof"),
    "devil": gettext_lazy("Devil"),
}

AUCTION_NAMES = {
    "start_auction": gettext_lazy("start auction"),
    "substitute_auction": gettext_lazy("substitute auction"),
}

# An engine event or log entry as stored (JSON), and the players' names by
# colour (a seat that has not taken a colour yet is under None).
Event = Mapping[str, Any]
Names = Mapping[str | None, str]


def moment(value: datetime | None) -> str:
    """A moment as the moderators' pages write every one of them: one
    format, in UTC, the zone named ("2026-12-04 15:09 UTC")."""
    if value is None:
        return "—"
    return dateformat.format(value.astimezone(UTC), "Y-m-d H:i") + " UTC"


def colour_name(colour: str | None) -> str:
    return str(COLOUR_NAMES.get(colour or "", colour or ""))


_colour_label = colour_name


def bearer_name(code: str) -> str:
    if code in BEARER_NAMES:
        return str(BEARER_NAMES[code])
    return _("a %(code)s bearer") % {"code": code}


def card_name(code: str | None, *, effect: str = "") -> str:
    """A bearer card for a person to read: the Goof and the Devil by their
    name in the reader's language, a plain mover by its number ("+2"), an
    unseen card as a dash. ``effect`` ("−2") follows a named card, for pages
    with room to say what it does."""
    if code is None:
        return "—"
    if code not in CARD_NAMES:
        return code
    name = str(CARD_NAMES[code])
    return f"{name} {effect}" if effect else name


def card_list(codes: Iterable[str | None]) -> str:
    return " ".join(card_name(code) for code in codes)


def _where(status: str, position: int) -> str:
    if status == "pond":
        return _("into the shell pond")
    if status == "finished":
        return _("across the finish")
    return _("to space %(space)d") % {"space": position}


def _movement(event: Event) -> str:
    """"forward 3 to space 7", "back 2 — into the shell pond"."""
    steps = event["to"] - event["from"]
    where = _where(event["status"], event["to"])
    if event["status"] == "pond":
        return _("back %(n)d — %(where)s") % {"n": -steps, "where": where}
    if steps >= 0:
        return _("forward %(n)d %(where)s") % {"n": steps, "where": where}
    return _("back %(n)d %(where)s") % {"n": -steps, "where": where}


def describe(event: Event, names: Names | None = None) -> str:
    """One sentence for one event; unknown events yield an empty string.
    ``names`` maps colours to players' names; without it colours are named."""
    kind = event["type"]

    def colour_name(colour: str | None) -> str:
        return (names or {}).get(colour) or _colour_label(colour)

    who = colour_name(event.get("colour"))
    if kind == "start_player":
        return _("%(who)s was drawn to start.") % {"who": who}
    if kind == "auction_open":
        return _("%(auction)s %(number)d opens: %(bidders)s bid, %(opener)s first.") % {
            "auction": str(AUCTION_NAMES[event["kind"]]).capitalize(),
            "number": event["number"],
            "bidders": ", ".join(colour_name(c) for c in event["bidders"]),
            "opener": colour_name(event["opener"]),
        }
    if kind == "face_up":
        return _("Face up for everyone: %(cards)s.") % {"cards": card_list(event["codes"])}
    if kind == "bid":
        return _("%(who)s bid %(amount)d.") % {"who": who, "amount": event["amount"]}
    if kind == "pass":
        if event["automatic"]:
            return _("%(who)s could not raise and passed.") % {"who": who}
        return _("%(who)s passed.") % {"who": who}
    if kind == "discarded":
        return ngettext(
            "A passing bidder's card went face down to the discard pile.",
            "%(count)d passing bidders' cards went face down to the discard pile.",
            event["count"],
        ) % {"count": event["count"]}
    if kind == "auction_won":
        return _("%(who)s bought the team %(cards)s for %(price)d gold.") % {
            "who": who,
            "cards": card_list(event["codes"]),
            "price": event["price"],
        }
    if kind == "unsold":
        return _("Nobody bought; the lot went to the discard pile.")
    if kind == "last_team":
        return _("%(who)s paid %(price)d gold for the last team: %(cards)s.") % {
            "who": who,
            "price": event["price"],
            "cards": card_list(event["codes"]),
        }
    if kind == "arrange":
        return _("%(who)s arranged their team: %(cards)s.") % {"who": who, "cards": card_list(event["codes"])}
    if kind == "race_start":
        return _("Race %(number)d to space %(finish)d begins; %(first)s rolls first.") % {
            "number": event["number"],
            "finish": event["finish"],
            "first": colour_name(event["first"]),
        }
    if kind == "roll":
        return _("%(who)s rolled %(face)d: %(bearer)s carries %(who)s %(movement)s.") % {
            "who": who,
            "face": event["face"],
            "bearer": bearer_name(event["code"]),
            "movement": _movement(event),
        }
    if kind == "push":
        if event["target"] is None:
            return _("%(who)s let the Devil push no one.") % {"who": who}
        return _("%(who)s's Devil pushed %(target)s %(movement)s.") % {
            "who": who,
            "target": colour_name(event["target"]),
            "movement": _movement(event),
        }
    if kind == "race_over":
        return describe_race(event, names)
    if kind == "remove":
        return _("%(who)s, last, removed %(picks)s.") % {
            "who": who,
            "picks": ", ".join(
                _("%(owner)s's %(card)s") % {"owner": colour_name(p["colour"]), "card": card_name(p["code"])}
                for p in event["picks"]
            ),
        }
    if kind == "refill":
        return _("%(who)s drew %(card)s into slot %(slot)d.") % {
            "who": who,
            "card": card_name(event["code"]),
            "slot": event["slot"],
        }
    if kind == "game_over":
        return _("The game is over. %(standings)s") % {"standings": describe_standings(event["standings"], names)}
    return ""


def describe_race(event: Event, names: Names | None = None) -> str:
    def colour_name(colour: str) -> str:
        return (names or {}).get(colour) or _colour_label(colour)

    places = []
    for place, (colour, prize) in enumerate(zip(event["ranking"], event["prizes"], strict=False), start=1):
        text = _("%(place)d. %(who)s") % {"place": place, "who": colour_name(colour)}
        if colour in event["pond"]:
            text += " " + _("(in the pond)")
        if prize:
            text += " " + _("+%(prize)d gold") % {"prize": prize}
        places.append(text)
    return _("Race %(number)d is over: %(places)s.") % {
        "number": event["number"],
        "places": "; ".join(places),
    }


def describe_standings(rows: Iterable[Event], names: Names | None = None) -> str:
    def colour_name(colour: str) -> str:
        return (names or {}).get(colour) or _colour_label(colour)

    return "; ".join(
        _("%(place)d. %(who)s %(gold)d gold") % {"place": i, "who": colour_name(r["colour"]), "gold": r["gold"]}
        for i, r in enumerate(rows, start=1)
    )


def describe_moderation(entry: Event, names: Names | None = None) -> str:
    """"A moderator extended Blue's deadline by 24 h: player ill"."""
    seat_name = ""
    if entry.get("colour"):
        seat_name = (names or {}).get(entry["colour"]) or _colour_label(entry["colour"])
    action, detail, reason = entry["action"], entry.get("detail", ""), entry["reason"]
    texts = {
        "extend": _("A moderator extended %(seat)s's deadline by %(detail)s h") ,
        "pause": _("A moderator paused the game"),
        "resume": _("A moderator resumed the game; deadlines moved on by the pause"),
        "default": _("A moderator applied the default decision for %(seat)s"),
        "replace": _("A moderator handed %(seat)s's seat to a new player"),
        "autopilot_on": _("A moderator put %(seat)s on autopilot"),
        "autopilot_off": _("A moderator took %(seat)s off autopilot"),
        "resend": _("A moderator sent %(seat)s their link again"),
        "abort": _("A moderator ended the game"),
        "help": _("A moderator answered %(seat)s's request for help"),
        "hide": _("A moderator took the game out of the list of open games"),
    }
    text = texts.get(action, _("A moderator acted")) % {"seat": seat_name, "detail": detail}
    return _("%(text)s: %(reason)s") % {"text": text, "reason": reason}


def describe_notation(text: str, names: Names | Callable[[], Names] | None = None) -> str:
    """A decision in the engine's notation ("push blue", "remove red:3 blue:1")
    worded for the person who made it: "you pushed Bruno back". Text that is
    no decision the forms make comes back as it is. ``names`` may be a
    function, called only for a decision that names players (most name none,
    and need no query for them)."""
    verb, *args = text.split() or [""]

    def who(colour: str) -> str:
        known = names() if callable(names) else names
        return (known or {}).get(colour) or _colour_label(colour)

    if verb == "bid" and len(args) == 1:
        return _("you bid %(amount)s") % {"amount": args[0]}
    if verb == "pass" and not args:
        return _("you passed")
    if verb == "roll" and not args:
        return _("you rolled the die")
    if verb == "push" and len(args) == 1:
        if args[0] == "none":
            return _("you let the Devil push no one")
        return _("you pushed %(who)s back") % {"who": who(args[0])}
    if verb == "remove" and args and all(":" in arg for arg in args):
        picks = [arg.partition(":") for arg in args]
        return _("you removed %(picks)s") % {
            "picks": joined(
                [
                    _("%(owner)s's bearer in slot %(slot)s") % {"owner": who(colour), "slot": slot}
                    for colour, _sep, slot in picks
                ]
            )
        }
    if verb == "arrange" and args:
        return _("you arranged your team: %(cards)s") % {"cards": card_list(args)}
    return text


def ordinal(place: int) -> str:
    words = {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th"), 5: _("5th"), 6: _("6th")}
    return words.get(place, f"{place}.")


def joined(words: list[str]) -> str:
    """"Anna", "Anna and Bruno", "Anna, Bruno and Carl"."""
    if len(words) < 2:
        return "".join(words)
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def final_standings(observation: Event | None, names: Names | None = None) -> dict[str, Any] | None:
    """The end of a game as pages and the last email show it, or None while it
    runs: ``rows`` best first (place, colour, name, gold, winner) and
    ``tie_breaks``, a sentence for each group of equal gold that the last
    race's places put in order (docs/rules-notes.md#the-end)."""
    order = (observation or {}).get("standings")
    if observation is None or not order:
        return None

    def name(colour: str) -> str:
        return (names or {}).get(colour) or _colour_label(colour)

    gold = {player["colour"]: player["gold"] for player in observation["players"]}
    rows = [
        {"place": place, "colour": colour, "name": name(colour), "gold": gold[colour], "winner": place == 1}
        for place, colour in enumerate(order, start=1)
    ]
    return {"rows": rows, "tie_breaks": _tie_breaks(order, gold, observation["results"], name)}


def _tie_breaks(order: list[str], gold: dict[str, int], results: list[Event], name: Callable[[str], str]) -> list[str]:
    if not results:
        return []
    last = results[-1]
    place = {colour: index for index, colour in enumerate(last["ranking"], start=1)}
    groups: dict[int, list[str]] = {}
    for colour in order:
        groups.setdefault(gold[colour], []).append(colour)
    sentences = []
    for amount, tied in groups.items():
        # A player the last race did not rank was put in order by seat, not
        # by the race: no sentence can say the race decided it.
        if len(tied) < 2 or any(colour not in place for colour in tied):
            continue
        if len(tied) == 2:
            better, worse = tied
            sentences.append(
                ngettext(
                    "%(better)s and %(worse)s both have %(gold)d gold; %(better)s placed better in race "
                    "%(race)d (%(better_place)s, against %(worse_place)s).",
                    "%(better)s and %(worse)s both have %(gold)d gold; %(better)s placed better in race "
                    "%(race)d (%(better_place)s, against %(worse_place)s).",
                    amount,
                )
                % {
                    "better": name(better),
                    "worse": name(worse),
                    "gold": amount,
                    "race": last["number"],
                    "better_place": ordinal(place[better]),
                    "worse_place": ordinal(place[worse]),
                }
            )
            continue
        sentences.append(
            ngettext(
                "%(players)s all have %(gold)d gold; race %(race)d put them in this order: %(places)s.",
                "%(players)s all have %(gold)d gold; race %(race)d put them in this order: %(places)s.",
                amount,
            )
            % {
                "players": joined([name(colour) for colour in tied]),
                "gold": amount,
                "race": last["number"],
                "places": ", ".join(
                    _("%(who)s %(place)s") % {"who": name(colour), "place": ordinal(place[colour])} for colour in tied
                ),
            }
        )
    return sentences


def event_told(event: Event) -> bool:
    """Whether ``describe`` has a sentence for this event (secret draws and
    bare roll requests have none)."""
    return bool(describe(event))


def movement_words(start: int, end: int, status: str) -> str:
    """"forward 3 to space 7", "back 2 — into the shell pond": a move from
    ``start`` to ``end`` that leaves the chair ``status``, as a roll's
    sentence words it."""
    return _movement({"from": start, "to": end, "status": status})
