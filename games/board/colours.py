"""The chairs' colours, written once: SVG takes the hex, PNG the RGB of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

COLOUR_HEX = {
    "red": "#c0392b",
    "yellow": "#f4c20d",
    "green": "#2e9d57",
    "blue": "#2f6fd6",
    "white": "#f7f7f2",
    "black": "#222222",
}

UNKNOWN_HEX = "#888888"

# The board's own paint: (fill, outline, outline width) of a space by kind.
SPACE_STYLE = {
    "current": ("#f3d27a", "#7a5c1e", 2),
    "finish": ("#efe3c4", "#9a8f7a", 1),
    "start": ("#d9ead3", "#9a8f7a", 1),
    "behind_start": ("#e3eef8", "#9a8f7a", 1),
    "plain": ("#f4f1ea", "#9a8f7a", 1),
}
POND = ("#9cc9e8", "#4d8db8")
POND_LABEL = "#16324a"
CHAIR_OUTLINE = "#222222"
LABEL = "#555555"
ACCENT = "#7a5c1e"
# The board keeps its own light ground so its paint reads the same in dark
# mode and in the email picture.
BOARD_BG = "#fbf8f1"
INK = "#222222"
TRACK_LINE = "#c8b993"
LAST_MOVED = "#d0021b"


def space_style(space: Mapping[str, Any]) -> tuple[str, str, int]:
    if space["current"]:
        return SPACE_STYLE["current"]
    if space["finish"]:
        return SPACE_STYLE["finish"]
    if space["start"]:
        return SPACE_STYLE["start"]
    if space["number"] < 0:
        return SPACE_STYLE["behind_start"]
    return SPACE_STYLE["plain"]


def hex_of(colour: str) -> str:
    return COLOUR_HEX.get(colour, UNKNOWN_HEX)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    red, green, blue = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    return red, green, blue


def label_ink(hex_colour: str) -> str:
    """Black or white, whichever reads better on a chair of this colour."""
    red, green, blue = rgb(hex_colour)
    return INK if red * 0.299 + green * 0.587 + blue * 0.114 > 150 else "#ffffff"
