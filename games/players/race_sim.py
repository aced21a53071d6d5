"""The rest of a race played out many times, from what a seat sees: the
expert player's way of judging a Devil's push.

Every chair rolls in turn as the engine has it (clockwise from the seat
after the one rolling, chairs that finished or fell left out), the die
naming a slot of its team's display alike; a Devil pushes as the deadline
default does (the chair furthest ahead, the first of those clockwise from
the pusher), since that is what most seats let happen. The outcomes are
the engine's: arrivals in order, then the chairs on the track by space,
then the pond's; no prize for a chair in the pond. The same dice serve
every candidate compared (``rolls``), so a difference between two pushes
is the push's, not the luck of the draw."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import Ruleset, landing

RACING, FINISHED, POND = "racing", "finished", "pond"


@dataclass
class Table:
    """A race as one seat sees it, by seat number."""

    number: int
    first: int
    positions: list[int]
    status: list[str]
    arrivals: list[int]
    fallen: list[int]
    rolls: int
    # Each seat's team: (move, push) of each card of its display.
    teams: list[list[tuple[int, int]]]

    def copy(self) -> Table:
        return Table(
            self.number, self.first, list(self.positions), list(self.status),
            list(self.arrivals), list(self.fallen), self.rolls, self.teams,
        )


def moved(table: Table, ruleset: Ruleset, seat: int, steps: int) -> None:
    position, status = landing(ruleset, table.number, table.positions[seat], steps)
    table.positions[seat] = position
    table.status[seat] = status
    if status == FINISHED:
        table.arrivals.append(seat)
    elif status == POND:
        table.fallen.append(seat)


def default_target(table: Table, pusher: int) -> int | None:
    players = len(table.positions)
    racing = [(pusher + step) % players for step in range(1, players)]
    racing = [seat for seat in racing if table.status[seat] == RACING]
    if not racing:
        return None
    best = max(table.positions[seat] for seat in racing)
    return next(seat for seat in racing if table.positions[seat] == best)


def played_out(table: Table, ruleset: Ruleset, after: int, dice: random.Random) -> None:
    """The race finished from the turn of ``after`` on (its turn is over)."""
    players = len(table.positions)
    turn = after
    cap = ruleset.roll_cap
    while RACING in table.status and table.rolls < cap:
        turn = (turn + 1) % players
        if table.status[turn] != RACING:
            continue
        team = table.teams[turn]
        move, push = team[int(dice.random() * len(team))]
        moved(table, ruleset, turn, move)
        table.rolls += 1
        if push and any(status == RACING for seat, status in enumerate(table.status) if seat != turn):
            target = default_target(table, turn)
            if target is not None:
                moved(table, ruleset, target, -push)


def ranking(table: Table) -> list[int]:
    """Seats from first to last, as the engine ranks a race: arrivals in
    order, the chairs on the track by space (ties by turn order), the pond's
    last in first out."""
    players = len(table.positions)
    order = [(table.first + step) % players for step in range(players)]
    on_track = sorted(
        (seat for seat in order if table.status[seat] == RACING),
        key=lambda seat: (-table.positions[seat], order.index(seat)),
    )
    return table.arrivals + on_track + table.fallen[::-1]


def prizes(table: Table, ranked: list[int], ruleset: Ruleset) -> list[int]:
    row = ruleset.prizes[table.number - 1]
    paid = [0] * len(table.positions)
    for place, seat in enumerate(ranked):
        if place < len(row) and table.status[seat] != POND:
            paid[seat] = row[place]
    return paid


def outcomes(
    table: Table, ruleset: Ruleset, pusher: int, target: int | None, push: int, seeds: Sequence[int]
) -> list[tuple[list[int], list[int]]]:
    """For each seed, the prizes and the ranking after ``pusher`` pushes ``target``
    (None: nobody) ``push`` spaces back and the race is played out."""
    results = []
    for seed in seeds:
        world = table.copy()
        if target is not None:
            moved(world, ruleset, target, -push)
        played_out(world, ruleset, pusher, random.Random(seed))
        ranked = ranking(world)
        results.append((prizes(world, ranked, ruleset), ranked))
    return results
