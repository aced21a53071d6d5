"""How much gold a chair can expect from a race, worked out rather than
played out: each chair's own rolls are a random walk over the track, solved
exactly step by step, and the chairs are compared roll by roll.

The walk knows every rule of a race that concerns one chair (its team's
moves, the finish space, the shell pond below the track and on pond spaces).
What it leaves out is how chairs meet: the Devil's pushes a chair receives
are spread evenly over its rolls, and chairs finish independently of each
other. It is a model for choosing, not the rules: the engine still plays."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.engine import Ruleset

# Rolls a walk is followed for; a chair that has not finished by then is
# counted as one that never does (it ranks behind every finisher).
HORIZON = 80
# Received pushes are rounded to this, so that walks are shared between calls.
PUSH_RATE_STEP = 0.02


def moves_of(team: Sequence[str], ruleset: Ruleset) -> tuple[tuple[int, float], ...]:
    """The own move of one roll and its probability, for a team of codes."""
    by_code = {bearer.code: bearer for bearer in ruleset.bearers}
    chances: dict[int, float] = {}
    for code in team:
        move = by_code[code].move
        chances[move] = chances.get(move, 0.0) + 1 / len(team)
    return tuple(sorted(chances.items()))


def push_chance(team: Sequence[str], ruleset: Ruleset) -> float:
    """How often a roll of this team lets it push another chair."""
    by_code = {bearer.code: bearer for bearer in ruleset.bearers}
    return sum(1 for code in team if by_code[code].push) / len(team) if team else 0.0


def _pushed_back(ruleset: Ruleset) -> int:
    return max((bearer.push for bearer in ruleset.bearers), default=0)


@lru_cache(maxsize=50_000)
def finish_chances(
    moves: tuple[tuple[int, float], ...],
    start: int,
    finish: int,
    lowest: int,
    pond_spaces: tuple[int, ...],
    pushed: float,
    push: int,
) -> tuple[float, ...]:
    """P(the chair finishes with its n-th own roll from now), n = 1, 2, ...;
    what is missing from 1 is the pond, or not finishing in HORIZON rolls.
    ``pushed`` is the chance of being pushed back ``push`` spaces after a roll."""
    def lands(position: int, moved_back: bool) -> int | None:
        if position < lowest or (moved_back and position in pond_spaces):
            return None
        return position

    spread = {start: 1.0}
    chances = []
    for _ in range(HORIZON):
        finished = 0.0
        after: dict[int, float] = {}
        for position, chance in spread.items():
            for move, move_chance in moves:
                reached = position + move
                weight = chance * move_chance
                if reached >= finish:
                    finished += weight
                    continue
                landed = lands(reached, move < 0)
                if landed is None:
                    continue
                if pushed:
                    back = lands(landed - push, True)
                    if back is not None:
                        after[back] = after.get(back, 0.0) + weight * pushed
                    weight *= 1 - pushed
                after[landed] = after.get(landed, 0.0) + weight
        chances.append(finished)
        spread = after
        if sum(spread.values()) < 1e-6:
            break
    return tuple(chances)


def chair_chances(team: Sequence[str], ruleset: Ruleset, race: int, start: int, pushed: float) -> tuple[float, ...]:
    """finish_chances for a team in race ``race`` (1-based) from ``start``."""
    return finish_chances(
        moves_of(team, ruleset), start, ruleset.finish_spaces[race - 1], ruleset.lowest_space,
        ruleset.pond_spaces, rounded_rate(pushed), _pushed_back(ruleset),
    )


def pushes_received(teams: Sequence[Sequence[str]], ruleset: Ruleset) -> list[float]:
    """Each chair's chance of being pushed after one of its rolls, with every
    Devil roll's push going to one of the other chairs at random."""
    return pushes_from([push_chance(team, ruleset) for team in teams])


def pushes_from(rates: Sequence[float]) -> list[float]:
    """pushes_received, from each chair's chance to push after a roll."""
    others = max(1, len(rates) - 1)
    total = sum(rates)
    return [min(1.0, (total - rate) / others) for rate in rates]


def rounded_rate(pushed: float) -> float:
    return round(pushed / PUSH_RATE_STEP) * PUSH_RATE_STEP


def _beaten_by(count: list[float], chance: float) -> list[float]:
    """The distribution of how many rivals finish first, with one more rival
    who does so with ``chance``."""
    grown = [0.0] * (len(count) + 1)
    for beaten, p in enumerate(count):
        grown[beaten] += p * (1 - chance)
        grown[beaten + 1] += p * chance
    return grown


def place_chances(
    mine: tuple[float, ...], rivals: Sequence[tuple[tuple[float, ...], float]], places: int, places_taken: int
) -> tuple[float, ...]:
    """The chance of each of the first ``places`` places for a chair:
    ``mine`` its finish_chances, ``rivals`` each racing rival's with the
    share of equal roll counts it wins (1 when it rolls before this chair in
    every round, 0.5 when unknown), ``places_taken`` the chairs that have
    already finished."""
    ahead = [0.0] * len(rivals)  # each rival's chance to have finished before roll n
    chances = [0.0] * places
    for roll, chance in enumerate(mine):
        if chance:
            count = [1.0]
            for index, (theirs, tie_share) in enumerate(rivals):
                now = theirs[roll] if roll < len(theirs) else 0.0
                count = _beaten_by(count, ahead[index] + tie_share * now)
            for beaten, p in enumerate(count):
                place = places_taken + beaten
                if place < places:
                    chances[place] += chance * p
        for index, (theirs, _tie_share) in enumerate(rivals):
            if roll < len(theirs):
                ahead[index] += theirs[roll]
    return tuple(chances)


def expected_prize(
    mine: tuple[float, ...], rivals: Sequence[tuple[tuple[float, ...], float]], prizes: Sequence[int], places_taken: int
) -> float:
    """The gold a chair can expect from the race (arguments as place_chances')."""
    places = place_chances(mine, rivals, len(prizes), places_taken)
    return sum(chance * prize for chance, prize in zip(places, prizes, strict=True))
