"""The small drawings of the rules page: one bearer card, and a sketch of the
start of the track with the shell pond and the finish arch.

Each drawing is drawn at its own size (width = viewBox width) and kept
narrower than a 390 px phone's text column, so the browser never scales it
down and no label renders under 12 px."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .colours import ACCENT, LABEL, POND, SPACE_STYLE

CARD_W, CARD_H = 76, 100
# The smallest label drawn; the browser test holds every drawing to it.
MIN_FONT = 12
SPACE = 32
GAP = 4


def _signed(number: int) -> str:
    return f"+{number}" if number >= 0 else f"−{-number}"


def bearer_card_svg(*, label: str, move: int, push: int, count: int) -> str:
    """One bearer card: its move big, its name, and how many the deck holds."""
    big = _signed(move) if not push else f"{_signed(move)}/{_signed(-push)}"
    big_size = 24 if len(big) <= 3 else 18
    fill = "#f7e7e4" if move < 0 or push else "#f4f1ea"
    aria = ngettext("%(label)s: %(count)d card", "%(label)s: %(count)d cards", count) % {"label": label, "count": count}
    return mark_safe(
        f'<svg class="rules-card" viewBox="0 0 {CARD_W} {CARD_H}" width="{CARD_W}" height="{CARD_H}" '
        f'role="img" aria-label="{escape(aria)}" xmlns="http://www.w3.org/2000/svg" '
        'font-family="system-ui, sans-serif" text-anchor="middle">'
        f'<rect x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="8" fill="{fill}" '
        f'stroke="{ACCENT}" stroke-width="2"/>'
        f'<text x="{CARD_W // 2}" y="44" font-size="{big_size}" font-weight="700" fill="#222">{escape(big)}</text>'
        f'<text x="{CARD_W // 2}" y="68" font-size="13" fill="#222">{escape(label)}</text>'
        f'<text x="{CARD_W // 2}" y="88" font-size="{MIN_FONT}" fill="{LABEL}">×{count}</text>'
        "</svg>"
    )


def track_sketch_svg(*, start: int, lowest: int, pond_spaces: tuple[int, ...] | list[int], first_finish: int) -> str:
    """START, the spaces behind it, the pond below the lowest one, a few spaces
    ahead, then a gap and the first race's finish under the arch."""
    pond_w = 64
    ahead = 3
    numbers = list(range(lowest, start + ahead + 1))
    x0 = pond_w + 8
    width = x0 + len(numbers) * (SPACE + GAP) + 22 + SPACE + 8
    height = 118
    y = 46
    # Translated outside the f-strings, where makemessages finds them.
    label = _("Sketch of the track: the shell pond, the spaces behind START, START, and the finish arch")
    finish = _("Finish")
    parts = [
        f'<svg class="rules-track" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="{escape(label)}" '
        'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" text-anchor="middle">',
        f'<ellipse cx="{pond_w // 2 + 2}" cy="{y + SPACE // 2}" rx="{pond_w // 2}" ry="20" '
        f'fill="{POND[0]}" stroke="{POND[1]}"/>',
        f'<text x="{pond_w // 2 + 2}" y="{y - 10}" font-size="{MIN_FONT}" fill="currentColor">'
        f'{escape(_("Shell pond"))}</text>',
    ]
    for index, number in enumerate(numbers):
        x = x0 + index * (SPACE + GAP)
        if number in pond_spaces:
            fill, stroke = POND
        else:
            kind = "start" if number == start else "behind_start" if number < start else "plain"
            fill, stroke, _width = SPACE_STYLE[kind]
        parts.append(
            f'<rect x="{x}" y="{y}" width="{SPACE}" height="{SPACE}" rx="4" fill="{fill}" stroke="{stroke}"/>'
            f'<text x="{x + SPACE // 2}" y="{y + 21}" font-size="{MIN_FONT}" fill="#222">'
            f'{escape(_signed(number) if number else "0")}</text>'
        )
        if number == start:
            parts.append(
                f'<text x="{x + SPACE // 2}" y="{y + SPACE + 18}" font-size="{MIN_FONT}" font-weight="700" '
                f'fill="currentColor">{escape(_("START"))}</text>'
            )
    gap_x = x0 + len(numbers) * (SPACE + GAP)
    parts.append(f'<text x="{gap_x + 9}" y="{y + 21}" font-size="{MIN_FONT + 2}" fill="currentColor">…</text>')
    fx = gap_x + 22
    fill, stroke, _width = SPACE_STYLE["current"]
    parts.append(
        f'<rect x="{fx}" y="{y}" width="{SPACE}" height="{SPACE}" rx="4" fill="{fill}" stroke="{stroke}" '
        'stroke-width="2"/>'
        f'<text x="{fx + SPACE // 2}" y="{y + 21}" font-size="{MIN_FONT}" fill="#222">{first_finish}</text>'
        f'<path d="M{fx - 3} {y - 2} v-12 a19 14 0 0 1 38 0 v12" fill="none" stroke="{ACCENT}" stroke-width="3"/>'
        f'<text x="{fx + SPACE // 2 - 6}" y="{y + SPACE + 18}" font-size="{MIN_FONT}" fill="currentColor">'
        f'{escape(finish)}</text>'
        "</svg>"
    )
    return mark_safe("".join(parts))
