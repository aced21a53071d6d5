"""Where everything on the board goes, computed once for every drawing.

Measured in units meant to be CSS pixels on a phone: the whole board is
WIDTH units wide, narrower than a 390 px phone's text column (~358 px), so
the browser never scales it down and no label renders under MIN_FONT px.
The SVG and the PNG both draw exactly what this module lists."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.narrate import Names, colour_name, ordinal

from .colours import CHAIR_OUTLINE, INK, hex_of, label_ink

MIN_FONT = 12
SPACE_W, SPACE_H, GAP = 46, 68, 4
PER_ROW = 7
# The wide board of a desktop seat page: three rows beside the decision, so
# it takes no more than a third of the screen's height at a legible scale.
WIDE_PER_ROW = 14
MARGIN = 5
WIDTH = 2 * MARGIN + PER_ROW * SPACE_W + (PER_ROW - 1) * GAP
TOP = 30
# Room between rows for the prizes under one row and the arch over the next.
ROW_PITCH = SPACE_H + 34
POND_SLOTS = 2
CHAIR_R = 8
LINE = 20

# One shape per seat position, so colour is never the only clue.
SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "star")


@dataclass
class Board:
    width: int
    height: int
    spaces: list[dict[str, Any]]
    track: list[tuple[int, int]]  # the centres of the spaces in order, for the line joining them
    pond: dict[str, Any]
    markers: list[dict[str, Any]]
    texts: list[dict[str, Any]]
    arch: dict[str, Any] | None
    title: str = ""
    aria: list[str] = field(default_factory=list)


def short_labels(colours: list[str], names: Names) -> dict[str, str]:
    """Each chair's initial; two letters where two players share one."""
    full = {c: (names.get(c) or colour_name(c) or c or "?").strip() or "?" for c in colours}
    initials = {c: n[:1].upper() for c, n in full.items()}
    labels = {}
    for colour, initial in initials.items():
        others = [full[c].lower() for c in colours if c != colour and initials[c] == initial]
        if not others:
            labels[colour] = initial
            continue
        # The first letter where this name parts from its namesakes: Anna "An", Anton "At".
        name = full[colour].lower()
        tail = next((ch for i, ch in enumerate(name[1:], 1) if all(o[i : i + 1] != ch for o in others)), "")
        labels[colour] = initial + tail
    return labels


def shape_points(shape: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
    """The corners of a marker (empty for the circle): shared by SVG and PNG."""
    if shape == "square":
        s = r * 0.9
        return [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    if shape == "diamond":
        s = r * 1.2
        return [(x, y - s), (x + s, y), (x, y + s), (x - s, y)]
    if shape == "triangle":
        s = r * 1.35
        return [(x, y - s), (x + s * 0.95, y + s * 0.7), (x - s * 0.95, y + s * 0.7)]
    if shape == "hexagon":
        s = r * 1.1
        return [(x + s * math.cos(math.pi / 3 * k), y + s * math.sin(math.pi / 3 * k)) for k in range(6)]
    if shape == "star":
        outer, inner = r * 1.35, r * 0.75
        return [
            (
                x + (outer if k % 2 == 0 else inner) * math.sin(math.pi / 5 * k),
                y - (outer if k % 2 == 0 else inner) * math.cos(math.pi / 5 * k),
            )
            for k in range(10)
        ]
    return []


def board_layout(
    observation: Mapping[str, Any], ruleset: engine.Ruleset, names: Names | None = None, per_row: int = PER_ROW
) -> Board:
    """The track as a serpentine of rows of ``per_row`` spaces, the shell
    pond in the first two slots beside the spaces behind START, placings and
    the last move below."""
    names = names or {}
    low, high = ruleset.lowest_space, max(ruleset.finish_spaces)
    race = observation["race"]
    current_finish = race["finish"] if race else None
    prizes_by_finish = dict(zip(ruleset.finish_spaces, ruleset.prizes, strict=True))
    colours = [p["colour"] for p in observation["players"]]
    if race:
        colours += [c for c in race["chairs"] if c not in colours]
    labels = short_labels(colours, names)
    shape_of = {c: SHAPES[i % len(SHAPES)] for i, c in enumerate(colours)}

    def slot_xy(slot: int) -> tuple[int, int]:
        row, col = divmod(slot, per_row)
        if row % 2:
            col = per_row - 1 - col
        return MARGIN + col * (SPACE_W + GAP), TOP + row * ROW_PITCH

    spaces, where, track = [], {}, []
    for index, number in enumerate(range(low, high + 1)):
        x, y = slot_xy(index + POND_SLOTS)
        where[number] = (x, y)
        track.append((x + SPACE_W // 2, y + SPACE_H // 2))
        prize = prizes_by_finish.get(number)
        spaces.append(
            {
                "x": x,
                "y": y,
                "number": number,
                "label": _("START") if number == ruleset.start_space else str(number),
                "start": number == ruleset.start_space,
                "finish": number in prizes_by_finish,
                "current": number == current_finish,
                "pond": number in ruleset.pond_spaces,
                "prize": "/".join(str(p) for p in prize) if prize else "",
            }
        )
    rows = (high - low + POND_SLOTS) // per_row + 1
    pond_x, pond_y = slot_xy(0)
    pond = {"x": pond_x, "y": pond_y, "w": POND_SLOTS * SPACE_W + GAP, "h": SPACE_H, "label": _("Shell pond")}
    texts: list[dict[str, Any]] = []
    markers: list[dict[str, Any]] = []
    last = (race or {}).get("last_roll") or {}

    def marker(colour: str, x: float, y: float) -> dict[str, Any]:
        name = names.get(colour) or colour_name(colour)
        return {
            "colour": colour,
            "fill": hex_of(colour),
            "ink": label_ink(hex_of(colour)),
            "outline": CHAIR_OUTLINE,
            "shape": shape_of.get(colour, "circle"),
            "label": labels.get(colour, "?"),
            "name": name,
            "x": x,
            "y": y,
            "last": colour == last.get("colour"),
        }

    aria = []
    if race:
        stacked: dict[int, int] = {}
        for colour in colours:
            chair = race["chairs"].get(colour)
            if not chair or chair["status"] != "racing":
                continue
            position = chair["position"]
            x, y = where.get(position, where[low])
            offset = stacked.get(position, 0)
            stacked[position] = offset + 1
            # Two across leaves room for two-letter labels (namesakes).
            col, row = offset % 2, offset // 2
            markers.append(marker(colour, x + 12 + col * 22, y + 26 + row * 17))
            aria.append(_("%(who)s on %(space)d") % {"who": markers[-1]["name"], "space": position})
        for index, colour in enumerate(race["fallen"]):
            col, row = index % 3, index // 3
            markers.append(marker(colour, pond_x + 24 + col * 24, pond_y + 27 + row * 17))
            aria.append(_("%(who)s in the shell pond") % {"who": markers[-1]["name"]})
    y = TOP + (rows - 1) * ROW_PITCH + SPACE_H + 14 + 24
    if last:
        who = names.get(last["colour"]) or colour_name(last["colour"])
        texts.append(_text(MARGIN, y, _("Moved last: %(who)s (die %(face)d)") % {"who": who, "face": last["face"]}))
        y += LINE + 4
    placings, heading = [], ""
    if race and race["arrivals"]:
        placings = list(zip(race["arrivals"], race["prizes"] + [0] * len(race["arrivals"]), strict=False))
        heading = _("Placings")
    elif not race and observation["results"]:
        result = observation["results"][-1]
        placings = list(zip(result["ranking"], result["prizes"] + [0] * len(result["ranking"]), strict=False))
        heading = _("Race %(number)d placings") % {"number": result["number"]}
    if placings:
        texts.append(_text(MARGIN, y, heading, bold=True))
        y += LINE
        for place, (colour, prize) in enumerate(placings, start=1):
            placed = marker(colour, MARGIN + 10, y - 4)
            markers.append(placed)
            line = _("%(place)s %(who)s") % {"place": ordinal(place), "who": placed["name"]}
            if prize:
                line += " " + _("(+%(gold)d gold)") % {"gold": prize}
            texts.append(_text(MARGIN + 24, y, line))
            aria.append(line)
            y += LINE
    arch = None
    if current_finish in where:
        x, top = where[current_finish]
        arch = {"x": x, "y": top}
    title = (
        _("Race %(number)d — finish at %(finish)d") % {"number": race["number"], "finish": race["finish"]}
        if race
        else _("Between races") if observation["results"] else _("Before the first race")
    )
    texts.insert(0, _text(MARGIN, 18, title, bold=True, size=14))
    return Board(
        width=2 * MARGIN + per_row * SPACE_W + (per_row - 1) * GAP,
        height=y + 4,
        spaces=spaces,
        track=track,
        pond=pond,
        markers=markers,
        texts=texts,
        arch=arch,
        title=title,
        aria=aria,
    )


def _text(
    x: float, y: float, text: str, *, bold: bool = False, size: int = 13, fill: str = INK, anchor: str = "start"
) -> dict[str, Any]:
    return {"x": x, "y": y, "text": text, "bold": bold, "size": max(size, MIN_FONT), "fill": fill, "anchor": anchor}

