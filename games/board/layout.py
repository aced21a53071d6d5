"""Where everything on the board goes, computed once for every drawing."""

from __future__ import annotations

from dataclasses import dataclass

from games import engine

from .colours import hex_of

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


def board_layout(observation: dict, ruleset: engine.Ruleset) -> Board:
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
    return {"colour": colour, "fill": hex_of(colour), "x": x, "y": y}
