"""The board as a small PNG for emails (mail programs rarely show SVG).

Drawn from the same layout as the page's SVG."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from games import engine

from .colours import CHAIR_OUTLINE, LABEL, POND, rgb, space_style
from .layout import board_layout


def board_png(observation: dict, ruleset_json: dict) -> bytes:
    layout = board_layout(observation, engine.Ruleset.from_json(ruleset_json))
    image = Image.new("RGB", (layout.width, layout.height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for space in layout.spaces:
        fill, outline, _width = space_style(space)
        box = (space["x"], space["y"], space["x"] + 28, space["y"] + 28)
        draw.rounded_rectangle(box, radius=4, fill=rgb(fill), outline=rgb(outline))
        draw.text((space["x"] + 2, space["y"] + 1), str(space["number"]), fill=rgb(LABEL))
    pond = layout.pond
    draw.ellipse(
        (pond["x"] - pond["rx"], pond["y"] - pond["ry"], pond["x"] + pond["rx"], pond["y"] + pond["ry"]),
        fill=rgb(POND[0]),
        outline=rgb(POND[1]),
    )
    for chair in layout.chairs + layout.pond_chairs + layout.podium:
        radius = 8 if "place" in chair else 6
        x, y = chair["x"], chair["y"]
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=rgb(chair["fill"]), outline=rgb(CHAIR_OUTLINE))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
