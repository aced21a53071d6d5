"""The board as SVG markup for pages."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import engine
from games.narrate import Names, colour_name

from .colours import ACCENT, BOARD_BG, LABEL, LAST_MOVED, POND, POND_LABEL, TRACK_LINE, space_style
from .layout import CHAIR_R, MIN_FONT, PER_ROW, SPACE_H, SPACE_W, WIDE_PER_ROW, board_layout, shape_points


def escape(text: object) -> str:
    """Django's escape() without its check for lazy text, which cost a
    drawing's forty-odd labels 0.05 ms (0.22 ms a drawing, 0.17 without):
    the same HTML escaping, the standard library's, as Django's own."""
    return html.escape(str(text))


def board_svg(
    observation: Mapping[str, Any], ruleset: engine.Ruleset, names: Names | None = None, *, wide: bool = False
) -> str:
    """The board picture as SVG markup. Built here rather than in a template:
    a few hundred shapes cost Django's template engine most of a page view.
    No width attribute: CSS scales it to the column (see .board in site.css).
    ``wide``: the three-row board a desktop shows beside the decision."""
    layout = board_layout(observation, ruleset, names, per_row=WIDE_PER_ROW if wide else PER_ROW)
    aria = "; ".join([layout.title, *layout.aria])
    # Translated outside the f-strings, where makemessages finds them.
    prizes_title = _("Prizes: 1st/2nd/3rd")
    arch_title = _("The arch")
    parts = [
        f'<svg class="board{" board-wide" if wide else ""}" viewBox="0 0 {layout.width} {layout.height}" '
        'preserveAspectRatio="xMinYMin meet" '
        f'role="img" aria-label="{escape(aria)}" xmlns="http://www.w3.org/2000/svg" '
        'font-family="system-ui, sans-serif">',
        f'<rect width="{layout.width}" height="{layout.height}" rx="6" fill="{BOARD_BG}"/>',
        f'<polyline points="{" ".join(f"{x},{y}" for x, y in layout.track)}" fill="none" '
        f'stroke="{TRACK_LINE}" stroke-width="6" stroke-linejoin="round"/>',
    ]
    pond = layout.pond
    parts.append(
        f'<rect x="{pond["x"]}" y="{pond["y"]}" width="{pond["w"]}" height="{pond["h"]}" rx="22" '
        f'fill="{POND[0]}" stroke="{POND[1]}" stroke-width="2"/>'
        f'<text x="{pond["x"] + pond["w"] / 2}" y="{pond["y"] + 15}" font-size="{MIN_FONT}" '
        f'text-anchor="middle" fill="{POND_LABEL}">{escape(pond["label"])}</text>'
    )
    for space in layout.spaces:
        x, y = space["x"], space["y"]
        fill, stroke, width = POND + (2,) if space["pond"] else space_style(space)
        bold = ' font-weight="700"' if space["start"] or space["finish"] else ""
        parts.append(
            f'<rect x="{x}" y="{y}" width="{SPACE_W}" height="{SPACE_H}" rx="5" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width + 1 if space["finish"] else width}"/>'
            f'<text x="{x + SPACE_W / 2}" y="{y + 14}" font-size="{MIN_FONT}" text-anchor="middle" '
            f'fill="{LABEL}"{bold}>{escape(space["label"])}</text>'
        )
        if space["prize"]:
            parts.append(
                f'<text x="{x + SPACE_W / 2}" y="{y + SPACE_H + 14}" font-size="{MIN_FONT}" text-anchor="middle" '
                f'fill="{ACCENT}" font-weight="{700 if space["current"] else 400}">{space["prize"]}'
                f'<title>{escape(prizes_title)}</title></text>'
            )
    if layout.arch:
        x, y = layout.arch["x"], layout.arch["y"]
        parts.append(
            f'<path class="arch" d="M{x - 2} {y + 10} V{y - 2} A{SPACE_W / 2 + 2} 12 0 0 1 {x + SPACE_W + 2} {y - 2} '
            f'V{y + 10}" fill="none" stroke="{ACCENT}" stroke-width="4"><title>{escape(arch_title)}</title></path>'
        )
    for marker in layout.markers:
        parts.append(_marker(marker))
    for text in layout.texts:
        weight = ' font-weight="700"' if text["bold"] else ""
        parts.append(
            f'<text x="{text["x"]}" y="{text["y"]}" font-size="{text["size"]}" fill="{text["fill"]}"'
            f'{weight} text-anchor="{text["anchor"]}">{escape(text["text"])}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _marker(marker: Mapping[str, Any]) -> str:
    x, y, shape = marker["x"], marker["y"], marker["shape"]
    paint = f'fill="{marker["fill"]}" stroke="{marker["outline"]}" stroke-width="1.5"'
    points = shape_points(shape, x, y, CHAIR_R)
    if points:
        body = f'<polygon points="{" ".join(f"{px:.1f},{py:.1f}" for px, py in points)}" {paint}/>'
    else:
        body = f'<circle cx="{x}" cy="{y}" r="{CHAIR_R}" {paint}/>'
    title = f'{marker["name"]} ({colour_name(marker["colour"])})'
    ring = ""
    if marker["last"]:
        title += " — " + _("moved last")
        ring = (
            f'<circle class="last-moved" cx="{x}" cy="{y}" r="{CHAIR_R + 4}" fill="none" '
            f'stroke="{LAST_MOVED}" stroke-width="2.5"/>'
        )
    return (
        f'<g class="chair chair-{shape}" data-colour="{escape(marker["colour"])}">'
        f"<title>{escape(title)}</title>{ring}{body}"
        f'<text x="{x}" y="{y + 4.5}" font-size="{MIN_FONT}" font-weight="700" text-anchor="middle" '
        f'fill="{marker["ink"]}" stroke="{marker["fill"]}" stroke-width="2" paint-order="stroke">'
        f'{escape(marker["label"])}</text></g>'
    )
