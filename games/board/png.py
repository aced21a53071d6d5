"""The board as a PNG for emails (mail programs rarely show SVG).

Drawn from the same layout as the page's SVG, at twice its size so it stays
sharp on phones that show the email picture at the layout's width."""

from __future__ import annotations

import io
import json
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from games import engine

from .colours import ACCENT, BOARD_BG, LABEL, LAST_MOVED, POND, TRACK_LINE, rgb, space_style
from .layout import CHAIR_R, MIN_FONT, SPACE_H, SPACE_W, board_layout, shape_points

SCALE = 2


@lru_cache(maxsize=8)
def _font(size: int, bold: bool = False):
    # DejaVu covers the dash and most players' alphabets where it is
    # installed; Pillow's own sized font is the legible fallback (the
    # unsized default is a few pixels high).
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size * SCALE)
    except OSError:
        return ImageFont.load_default(size=size * SCALE)


def board_png(observation: dict, ruleset_json: dict, names: dict | None = None, game: str = "") -> bytes:
    """``game`` is the public id of the game drawn, if any: the emails of one
    game at one version (a race's result, one to each player) show the same
    board, which is then drawn once."""
    layout = board_layout(observation, engine.Ruleset.from_json(ruleset_json), names)
    # As text, in the active language: what is drawn, and the key it is kept by.
    grounds = json.dumps([layout.spaces, layout.track, layout.pond, layout.arch], default=str)
    figures = json.dumps([layout.markers, layout.texts], default=str)
    return _png(game, layout.width, layout.height, grounds, figures)


# Kept within a game only: two games' boards are rarely the same, and a
# copied game in a bench would look cheaper than a real one.
@lru_cache(maxsize=16)
def _png(game: str, width: int, height: int, grounds: str, figures: str) -> bytes:
    image = _grounds(width, height, grounds).copy()
    draw = ImageDraw.Draw(image)
    s = _scaled
    markers, texts = json.loads(figures)
    for marker in markers:
        x, y = marker["x"], marker["y"]
        if marker["last"]:
            r = CHAIR_R + 4
            draw.ellipse(s(x - r, y - r, x + r, y + r), outline=rgb(LAST_MOVED), width=int(2.5 * SCALE))
        points = shape_points(marker["shape"], x, y, CHAIR_R)
        paint = {"fill": rgb(marker["fill"]), "outline": rgb(marker["outline"]), "width": 3}
        if points:
            draw.polygon([tuple(s(px, py)) for px, py in points], **paint)
        else:
            draw.ellipse(s(x - CHAIR_R, y - CHAIR_R, x + CHAIR_R, y + CHAIR_R), **paint)
        draw.text(
            s(x, y), marker["label"], fill=rgb(marker["ink"]), font=_font(MIN_FONT, True), anchor="mm",
            stroke_width=2, stroke_fill=rgb(marker["fill"]),
        )
    for text in texts:
        # The layout gives SVG baselines; PIL's "ls" anchor is the same point.
        draw.text(s(text["x"], text["y"]), text["text"], fill=rgb(text["fill"]), font=_font(text["size"], text["bold"]), anchor="ls")
    out = io.BytesIO()
    # A palette of 256 keeps the labels' smoothing and is a fifth of the
    # CPU of optimize=True on the full colours (17 ms against 80 ms on the
    # 2-core machine), at less than half the bytes: one is paid per email.
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


def _scaled(*values: float) -> list[float]:
    return [v * SCALE for v in values]


@lru_cache(maxsize=32)
def _grounds(width: int, height: int, grounds: str) -> Image.Image:
    """The track, the pond and the spaces: the same for every game of a
    ruleset at a race's finish, in a language, so drawn once per process
    (two thirds of a picture's drawing) and copied for each email.
    ``grounds`` is the layout's JSON of them, which they are drawn from."""
    spaces, track, pond, arch = json.loads(grounds)
    s = _scaled
    image = Image.new("RGB", (width * SCALE, height * SCALE), rgb(BOARD_BG))
    draw = ImageDraw.Draw(image)
    draw.line([tuple(s(x, y)) for x, y in track], fill=rgb(TRACK_LINE), width=6 * SCALE, joint="curve")
    draw.rounded_rectangle(
        s(pond["x"], pond["y"], pond["x"] + pond["w"], pond["y"] + pond["h"]),
        radius=22 * SCALE, fill=rgb(POND[0]), outline=rgb(POND[1]), width=2 * SCALE,
    )
    draw.text(s(pond["x"] + pond["w"] / 2, pond["y"] + 10), pond["label"], fill=rgb("#16324a"), font=_font(MIN_FONT), anchor="mm")
    for space in spaces:
        x, y = space["x"], space["y"]
        fill, outline, width = POND + (2,) if space["pond"] else space_style(space)
        width = width + 1 if space["finish"] else width
        draw.rounded_rectangle(
            s(x, y, x + SPACE_W, y + SPACE_H), radius=5 * SCALE, fill=rgb(fill), outline=rgb(outline), width=width * SCALE
        )
        draw.text(s(x + SPACE_W / 2, y + 10), space["label"], fill=rgb(LABEL), font=_font(MIN_FONT), anchor="mm")
        if space["prize"]:
            draw.text(s(x + SPACE_W / 2, y + SPACE_H + 10), space["prize"], fill=rgb(ACCENT), font=_font(MIN_FONT), anchor="mm")
    if arch:
        x, y = arch["x"], arch["y"]
        draw.arc(s(x - 2, y - 14, x + SPACE_W + 2, y + 10), 180, 360, fill=rgb(ACCENT), width=4 * SCALE)
        draw.line([tuple(s(x - 2, y - 2)), tuple(s(x - 2, y + 10))], fill=rgb(ACCENT), width=4 * SCALE)
        draw.line([tuple(s(x + SPACE_W + 2, y - 2)), tuple(s(x + SPACE_W + 2, y + 10))], fill=rgb(ACCENT), width=4 * SCALE)
    return image
