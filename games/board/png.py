"""The board as a small PNG for emails (mail programs rarely show SVG).

Drawn from the same coordinates as the page's SVG (selectors.board)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from games import engine
from games.selectors import board


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    hex_colour = hex_colour.lstrip("#")
    return tuple(int(hex_colour[i : i + 2], 16) for i in (0, 2, 4))


def board_png(observation: dict, ruleset_json: dict) -> bytes:
    layout = board(observation, engine.Ruleset.from_json(ruleset_json))
    image = Image.new("RGB", (layout.width, layout.height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for space in layout.spaces:
        fill = (243, 210, 122) if space["current"] else (239, 227, 196) if space["finish"] else (244, 241, 234)
        if space["number"] < 0:
            fill = (227, 238, 248)
        box = (space["x"], space["y"], space["x"] + 28, space["y"] + 28)
        draw.rounded_rectangle(box, radius=4, fill=fill, outline=(122, 92, 30) if space["current"] else (154, 143, 122))
        draw.text((space["x"] + 2, space["y"] + 1), str(space["number"]), fill=(90, 90, 90))
    pond = layout.pond
    draw.ellipse(
        (pond["x"] - pond["rx"], pond["y"] - pond["ry"], pond["x"] + pond["rx"], pond["y"] + pond["ry"]),
        fill=(156, 201, 232),
        outline=(77, 141, 184),
    )
    for chair in layout.chairs + layout.pond_chairs + layout.podium:
        radius = 8 if "place" in chair else 6
        x, y = chair["x"], chair["y"]
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=_rgb(chair["fill"]), outline=(34, 34, 34))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
