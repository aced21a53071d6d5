"""The board as SVG markup for pages."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import engine
from games.narrate import colour_name

from .colours import ACCENT, CHAIR_OUTLINE, LABEL, POND, space_style
from .layout import board_layout


def board_svg(observation: dict, ruleset: engine.Ruleset) -> str:
    """The board picture as SVG markup. Built here rather than in a template:
    a few hundred shapes cost Django's template engine most of a page view."""
    layout = board_layout(observation, ruleset)
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
        fill, stroke, width = space_style(space)
        label = start_label if space["start"] else str(space["number"])
        parts.append(
            f'<rect x="{x}" y="{y}" width="28" height="28" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
            f'<text x="{x + 2}" y="{y + 10}" font-size="8" fill="{LABEL}">{label}</text>'
        )
        if space["prize"]:
            parts.append(f'<text x="{x}" y="{y + 40}" font-size="7.5" fill="{ACCENT}">{space["prize"]}</text>')
    if layout.arch:
        x, y = layout.arch["x"], layout.arch["y"]
        parts.append(
            f'<path d="M{x - 2} {y + 2} v-10 a16 12 0 0 1 32 0 v10" fill="none" stroke="{ACCENT}" stroke-width="3">'
            f'<title>{escape(_("The arch"))}</title></path>'
        )
    for chair in layout.chairs:
        parts.append(
            f'<circle cx="{chair["x"]}" cy="{chair["y"]}" r="6" fill="{chair["fill"]}" stroke="{CHAIR_OUTLINE}">'
            f'<title>{escape(colour_name(chair["colour"]))}</title></circle>'
        )
    pond = layout.pond
    parts.append(
        f'<ellipse cx="{pond["x"]}" cy="{pond["y"]}" rx="{pond["rx"]}" ry="{pond["ry"]}" fill="{POND[0]}" stroke="{POND[1]}"/>'
        f'<text x="{pond["x"] - 28}" y="{pond["y"] - 28}" font-size="10" fill="currentColor">{escape(_("Shell pond"))}</text>'
        f'<text x="180" y="{pond["y"] - 28}" font-size="10" fill="currentColor">{escape(_("Placings"))}</text>'
    )
    for chair in layout.pond_chairs:
        parts.append(
            f'<circle cx="{chair["x"]}" cy="{chair["y"]}" r="6" fill="{chair["fill"]}" stroke="{CHAIR_OUTLINE}">'
            f'<title>{escape(colour_name(chair["colour"]))}</title></circle>'
        )
    for chair in layout.podium:
        parts.append(
            f'<circle cx="{chair["x"]}" cy="{chair["y"]}" r="9" fill="{chair["fill"]}" stroke="{CHAIR_OUTLINE}">'
            f'<title>{escape(colour_name(chair["colour"]))}</title></circle>'
            f'<text x="{chair["x"] - 3}" y="{chair["y"] + 22}" font-size="10" fill="currentColor">{chair["place"]}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
