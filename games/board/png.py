"""The board as a PNG for emails (mail programs rarely show SVG).

Drawn from the same layout as the page's SVG, at twice its size so it stays
sharp on phones that show the email picture at the layout's width."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, overload

from PIL import Image, ImageDraw, ImageFont

from games import engine
from games.narrate import Names

from .colours import (
    ACCENT,
    BOARD_BG,
    CHAIR_OUTLINE,
    COLOUR_HEX,
    INK,
    LABEL,
    LAST_MOVED,
    POND,
    POND_LABEL,
    SPACE_STYLE,
    TRACK_LINE,
    UNKNOWN_HEX,
    label_ink,
    rgb,
    space_style,
)
from .layout import CHAIR_R, MIN_FONT, SPACE_H, SPACE_W, board_layout, shape_points

SCALE = 2
COMPRESS_LEVEL = 3


@lru_cache(maxsize=8)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # DejaVu covers the dash and most players' alphabets where it is
    # installed; Pillow's own sized font is the legible fallback (the
    # unsized default is a few pixels high).
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size * SCALE)
    except OSError:
        return ImageFont.load_default(size=size * SCALE)


def board_png(
    observation: Mapping[str, Any], ruleset_json: dict[str, Any], names: Names | None = None, game: str = ""
) -> bytes:
    """``game`` is the public id of the game drawn, if any: the emails of one
    game at one version (a race's result, one to each player) show the same
    board, which is then drawn once."""
    return _png(game, *picture_of(observation, ruleset_json, names))


def picture_of(
    observation: Mapping[str, Any], ruleset_json: dict[str, Any], names: Names | None
) -> tuple[int, int, str, str]:
    """What is drawn, as text in the active language (the key it is kept
    by): width, height, the grounds and the figures."""
    layout = board_layout(observation, engine.Ruleset.from_json(ruleset_json), names)
    grounds = json.dumps([layout.spaces, layout.track, layout.pond, layout.arch], default=str)
    figures = json.dumps([layout.markers, layout.texts], default=str)
    return layout.width, layout.height, grounds, figures


# Kept within a game only: two games' boards are rarely the same, and a
# copied game in a bench would look cheaper than a real one.
@lru_cache(maxsize=16)
def _png(game: str, width: int, height: int, grounds: str, figures: str) -> bytes:
    out = io.BytesIO()
    # 256 colours at less than half the bytes of full colour. Mapping onto
    # the board's own palette costs a sixth of choosing a palette for each
    # picture (an octree, 7 ms of the 2-core machine), and one is paid per
    # email; so is the compression, which at level 3 takes half the CPU of
    # zlib's default 6 for a picture of 29 KB rather than 22.
    picture = drawn(width, height, grounds, figures).quantize(palette=_palette(), dither=Image.Dither.NONE)
    picture.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


def drawn(width: int, height: int, grounds: str, figures: str) -> Image.Image:
    """The picture in full colour."""
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
        paint: dict[str, Any] = {"fill": rgb(marker["fill"]), "outline": rgb(marker["outline"]), "width": 3}
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
        draw.text(
            s(text["x"], text["y"]),
            text["text"],
            fill=rgb(text["fill"]),
            font=_font(text["size"], text["bold"]),
            anchor="ls",
        )
    return image


# Text is the only thing drawn smoothed: its edges blend its ink into what
# it is written on, in this many steps of the palette.
BLEND_STEPS = 8
NEAR = 12


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour the board paints and the blends of its text's
    edges: labels on the ground, the pond and the spaces, and each chair's
    label on its chair and the chair's outline on the ground (chair labels
    are stroked in the chair's colour). The blends are more than the
    palette holds, so an octree picks the rest of it from them."""
    chairs = [*COLOUR_HEX.values(), UNKNOWN_HEX]
    grounds = [BOARD_BG, POND[0], *(fill for fill, _, _ in SPACE_STYLE.values())]
    solids = list(dict.fromkeys(
        [*chairs, *grounds, *(outline for _, outline, _ in SPACE_STYLE.values()), POND[1], POND_LABEL,
         CHAIR_OUTLINE, INK, LABEL, ACCENT, TRACK_LINE, LAST_MOVED, "#ffffff"]
    ))
    pairs = [(ink, ground) for ink in (INK, LABEL, ACCENT, POND_LABEL) for ground in grounds]
    pairs += [(label_ink(chair), chair) for chair in chairs] + [
        (chair, ground) for chair in chairs for ground in grounds
    ]
    blends = Image.new("RGB", (BLEND_STEPS - 1, len(pairs)))
    for row, (ink, ground) in enumerate(pairs):
        for step in range(1, BLEND_STEPS):
            blends.putpixel(
                (step - 1, row),
                tuple(round(a + (b - a) * step / BLEND_STEPS) for a, b in zip(rgb(ink), rgb(ground), strict=True)),
            )
    exact = [rgb(colour) for colour in solids]
    quantized = blends.quantize(256 - len(solids), method=Image.Quantize.FASTOCTREE).getpalette()
    if quantized is None:
        raise ValueError("a quantized picture has a palette")
    flat = quantized[: 3 * (256 - len(solids))]
    # Pillow finds the nearest entry at five bits a channel: a blend next to
    # a solid colour could stand in for it. (The ground and the white chair
    # are nearer than that, and the ground comes out a shade off white.)
    picked = [
        colour for colour in zip(flat[0::3], flat[1::3], flat[2::3], strict=True)
        if all(sum(abs(a - b) for a, b in zip(colour, solid, strict=True)) > NEAR for solid in exact)
    ]
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in exact + picked for value in colour])
    return palette


@overload
def _scaled(x: float, y: float, /) -> tuple[float, float]: ...


@overload
def _scaled(*values: float) -> tuple[float, ...]: ...


def _scaled(*values: float) -> tuple[float, ...]:
    return tuple(v * SCALE for v in values)


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
    draw.text(
        s(pond["x"] + pond["w"] / 2, pond["y"] + 10),
        pond["label"],
        fill=rgb(POND_LABEL),
        font=_font(MIN_FONT),
        anchor="mm",
    )
    for space in spaces:
        x, y = space["x"], space["y"]
        fill, outline, width = POND + (2,) if space["pond"] else space_style(space)
        width = width + 1 if space["finish"] else width
        draw.rounded_rectangle(
            s(x, y, x + SPACE_W, y + SPACE_H),
            radius=5 * SCALE,
            fill=rgb(fill),
            outline=rgb(outline),
            width=width * SCALE,
        )
        draw.text(s(x + SPACE_W / 2, y + 10), space["label"], fill=rgb(LABEL), font=_font(MIN_FONT), anchor="mm")
        if space["prize"]:
            draw.text(
                s(x + SPACE_W / 2, y + SPACE_H + 10),
                space["prize"],
                fill=rgb(ACCENT),
                font=_font(MIN_FONT),
                anchor="mm",
            )
    if arch:
        x, y = arch["x"], arch["y"]
        draw.arc(s(x - 2, y - 14, x + SPACE_W + 2, y + 10), 180, 360, fill=rgb(ACCENT), width=4 * SCALE)
        draw.line([tuple(s(x - 2, y - 2)), tuple(s(x - 2, y + 10))], fill=rgb(ACCENT), width=4 * SCALE)
        draw.line(
            [tuple(s(x + SPACE_W + 2, y - 2)), tuple(s(x + SPACE_W + 2, y + 10))], fill=rgb(ACCENT), width=4 * SCALE
        )
    return image
