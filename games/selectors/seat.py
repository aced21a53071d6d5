"""The read side: what pages and emails show, built only from the engine's
observation for the viewer (DESIGN.md, "Selectors")."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from games import engine
from games.models import ActionRecord, Game, ModerationEntry, Seat
from games.narrate import describe, describe_moderation

# The seat page shows the newest part; the history page has the rest.
HISTORY_LIMIT = 40

COLOUR_HEX = {
    "red": "#c0392b",
    "yellow": "#f4c20d",
    "green": "#2e9d57",
    "blue": "#2f6fd6",
    "white": "#f7f7f2",
    "black": "#222222",
}


def observation_for(game: Game, seat: Seat | None) -> dict | None:
    if game.state is None:
        return None
    state = engine.state_from_json(game.state)
    return engine.observe(state, None if seat is None else seat.position)


def history(game: Game, names: dict | None = None, limit: int = HISTORY_LIMIT) -> list[dict]:
    """Newest first: each entry a time and the sentences of one action."""
    records = (
        ActionRecord.objects.filter(game=game)
        .order_by("-seq")
        .only("seq", "created_at", "events", "actor")[:limit]
    )
    entries = []
    for record in records:
        sentences = [text for text in (describe(e, names) for e in record.events) if text]
        if sentences:
            entries.append(
                {"seq": record.seq, "at": record.created_at, "sentences": sentences, "actor": record.actor}
            )
    moderation = list(ModerationEntry.objects.filter(game=game).order_by("-created_at")[:limit])
    colours = dict(Seat.objects.filter(game=game).values_list("position", "colour")) if moderation else {}
    for entry in moderation:
        colour = colours.get(entry.seat_position)
        entries.append(
            {
                "seq": entry.at_seq,
                "at": entry.created_at,
                "moderation": True,
                "sentences": [
                    describe_moderation(
                        {"action": entry.action, "detail": entry.detail, "reason": entry.reason, "colour": colour},
                        names,
                    )
                ],
            }
        )
    entries.sort(key=lambda e: (e["at"], e["seq"]), reverse=True)
    return entries[:limit]



# Why a decision was made without the player's click, for the stale page.
_MADE_BY = {
    ActionRecord.Actor.DEADLINE: _lazy("the deadline had passed, so the default was applied"),
    ActionRecord.Actor.ORDER: _lazy("a standing order"),
    ActionRecord.Actor.AUTOPILOT: _lazy("the autopilot"),
    ActionRecord.Actor.MODERATOR: _lazy("a moderator"),
}


def decisions_since(game: Game, seq: int, names: dict, limit: int = 12) -> list[dict]:
    """What was decided after log entry ``seq`` (oldest first), each with who
    or what decided it: the answer to "why was my click too late?"."""
    records = (
        ActionRecord.objects.filter(game=game, seq__gt=seq)
        .exclude(actor=ActionRecord.Actor.CHANCE)
        .order_by("seq")
        .only("seq", "events", "actor")[:limit]
    )
    return [
        {
            "sentences": [text for text in (describe(e, names) for e in record.events) if text],
            "made_by": _MADE_BY.get(record.actor),
        }
        for record in records
    ]


def local_time(moment, time_zone: str):
    if moment is None:
        return None
    try:
        zone = zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return timezone.localtime(moment, zone)


# ---- the board picture -------------------------------------------------

SPACE = 30  # px per track space
PER_ROW = 11


@dataclass
class Board:
    width: int
    height: int
    spaces: list
    chairs: list
    pond: dict
    pond_chairs: list
    podium: list
    arch: dict | None


def board(observation: dict, ruleset: engine.Ruleset) -> Board:
    """Coordinates for the SVG: the track as a serpentine of rows from the
    lowest space to the last finish, the pond beside START, the podium below."""
    low, high = ruleset.lowest_space, max(ruleset.finish_spaces)
    race = observation["race"]
    current_finish = race["finish"] if race else ruleset.finish_spaces[0]
    prizes_by_finish = dict(zip(ruleset.finish_spaces, ruleset.prizes))
    spaces, where = [], {}
    for index, number in enumerate(range(low, high + 1)):
        row, col = divmod(index, PER_ROW)
        if row % 2:
            col = PER_ROW - 1 - col
        x, y = 10 + col * SPACE, 50 + row * (SPACE + 34)
        where[number] = (x, y)
        prize = prizes_by_finish.get(number)
        spaces.append(
            {
                "x": x,
                "y": y,
                "number": number,
                "start": number == ruleset.start_space,
                "finish": number in prizes_by_finish,
                "current": number == current_finish,
                "pond": number in ruleset.pond_spaces,
                "prize": "/".join(str(p) for p in prize) if prize else "",
            }
        )
    rows = (high - low) // PER_ROW + 1
    track_bottom = 50 + rows * (SPACE + 34)
    pond = {"x": 70, "y": track_bottom + 30, "rx": 60, "ry": 24}
    chairs, pond_chairs, podium = [], [], []
    if race:
        stacked: dict[int, int] = {}
        for colour, chair in race["chairs"].items():
            if chair["status"] == "racing":
                position = chair["position"]
                x, y = where.get(position, where[low])
                offset = stacked.get(position, 0)
                stacked[position] = offset + 1
                chairs.append(_chair(colour, x + 8 + (offset % 3) * 7, y + 8 + (offset // 3) * 7))
        for index, colour in enumerate(race["fallen"]):
            pond_chairs.append(_chair(colour, pond["x"] - 40 + index * 16, pond["y"]))
        for index, colour in enumerate(race["arrivals"]):
            podium.append({**_chair(colour, 190 + index * 26, track_bottom + 30), "place": index + 1})
    arch = None
    if current_finish in where:
        x, y = where[current_finish]
        arch = {"x": x, "y": y}
    return Board(
        width=20 + PER_ROW * SPACE,
        height=track_bottom + 70,
        spaces=spaces,
        chairs=chairs,
        pond=pond,
        pond_chairs=pond_chairs,
        podium=podium,
        arch=arch,
    )


def _chair(colour: str, x: int, y: int) -> dict:
    return {"colour": colour, "fill": COLOUR_HEX.get(colour, "#888"), "x": x, "y": y}


def board_text(observation: dict, names: dict) -> str:
    """The table as a few plain lines, for the text part of emails."""
    from games.narrate import colour_name

    def name(colour):
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
        cards = " ".join(card["code"] if card else "-" for card in player["display"]) or _("no team yet")
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
            lines.append(_("Your secret cards: %(cards)s") % {"cards": " ".join(c["code"] for c in auction["my_cards"])})
    return "\n".join(lines)


def board_svg(observation: dict, ruleset: engine.Ruleset) -> str:
    """The board picture as SVG markup. Built here rather than in a template:
    a few hundred shapes cost Django's template engine most of a page view."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe

    from games.narrate import colour_name

    layout = board(observation, ruleset)
    race = observation["race"]
    title = (
        _("Race %(number)d — finish at %(finish)d") % {"number": race["number"], "finish": race["finish"]}
        if race
        else _("Before the first race")
    )
    parts = [
        f'<svg viewBox="0 0 {layout.width} {layout.height}" width="{layout.width}" height="{layout.height}" '
        f'role="img" aria-label="{escape(_("The race track"))}" xmlns="http://www.w3.org/2000/svg" '
        'font-family="system-ui, sans-serif">',
        f'<text x="10" y="18" font-size="12" fill="currentColor">{escape(title)}</text>',
    ]
    start_label = escape(_("START"))
    for space in layout.spaces:
        x, y = space["x"], space["y"]
        if space["current"]:
            fill, stroke, width = "#f3d27a", "#7a5c1e", 2
        elif space["finish"]:
            fill, stroke, width = "#efe3c4", "#9a8f7a", 1
        elif space["start"]:
            fill, stroke, width = "#d9ead3", "#9a8f7a", 1
        elif space["number"] < 0:
            fill, stroke, width = "#e3eef8", "#9a8f7a", 1
        else:
            fill, stroke, width = "#f4f1ea", "#9a8f7a", 1
        label = start_label if space["start"] else str(space["number"])
        parts.append(
            f'<rect x="{x}" y="{y}" width="28" height="28" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
            f'<text x="{x + 2}" y="{y + 10}" font-size="8" fill="#555">{label}</text>'
        )
        if space["prize"]:
            parts.append(f'<text x="{x}" y="{y + 40}" font-size="7.5" fill="#7a5c1e">{space["prize"]}</text>')
    if layout.arch:
        x, y = layout.arch["x"], layout.arch["y"]
        parts.append(
            f'<path d="M{x - 2} {y + 2} v-10 a16 12 0 0 1 32 0 v10" fill="none" stroke="#7a5c1e" stroke-width="3">'
            f'<title>{escape(_("The arch"))}</title></path>'
        )
    for chair in layout.chairs:
        parts.append(
            f'<circle cx="{chair["x"]}" cy="{chair["y"]}" r="6" fill="{chair["fill"]}" stroke="#222">'
            f'<title>{escape(colour_name(chair["colour"]))}</title></circle>'
        )
    pond = layout.pond
    parts.append(
        f'<ellipse cx="{pond["x"]}" cy="{pond["y"]}" rx="{pond["rx"]}" ry="{pond["ry"]}" fill="#9cc9e8" stroke="#4d8db8"/>'
        f'<text x="{pond["x"] - 28}" y="{pond["y"] - 28}" font-size="10" fill="currentColor">{escape(_("Shell pond"))}</text>'
        f'<text x="180" y="{pond["y"] - 28}" font-size="10" fill="currentColor">{escape(_("Placings"))}</text>'
    )
    for chair in layout.pond_chairs:
        parts.append(
            f'<circle cx="{chair["x"]}" cy="{chair["y"]}" r="6" fill="{chair["fill"]}" stroke="#222">'
            f'<title>{escape(colour_name(chair["colour"]))}</title></circle>'
        )
    for chair in layout.podium:
        parts.append(
            f'<circle cx="{chair["x"]}" cy="{chair["y"]}" r="9" fill="{chair["fill"]}" stroke="#222">'
            f'<title>{escape(colour_name(chair["colour"]))}</title></circle>'
            f'<text x="{chair["x"] - 3}" y="{chair["y"] + 22}" font-size="10" fill="currentColor">{chair["place"]}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
