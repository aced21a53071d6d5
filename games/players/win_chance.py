"""A seat's chance of ending the game first in gold, worked out from the
teams and the gold on the table: each seat's prizes from the races left
as their own distribution (its team's chances of each place, leaning
towards an even share in a later race, as its team may change on the
way), and the seats as independent of each other.

What it is for: in the last races a lot that adds gold on average can
still lower the chance of winning (a leader who swaps a sound team for an
unseen one), and one that costs gold on average can raise it (a player
behind needs the spread)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.engine import Ruleset

from . import strong


def final_gold(
    team: Sequence[str],
    rivals: Sequence[Sequence[str]],
    gold: int,
    ruleset: Ruleset,
    first_race: int,
    later_weight: float,
) -> dict[int, float]:
    """The chance of each amount of gold a seat may hold at the end of the
    game. A later race's places lean towards an even share by
    ``later_weight`` a race between, as strong.team_worth's prizes do."""
    ends = {gold: 1.0}
    players = len(rivals) + 1
    for race in range(first_race, ruleset.races + 1):
        prizes = ruleset.prizes[race - 1]
        places = strong.race_places(team, rivals, ruleset, race)
        weight = later_weight ** (race - first_race)
        paid: dict[int, float] = {}
        for prize, chance in zip(prizes, places, strict=True):
            paid[prize] = paid.get(prize, 0.0) + weight * chance + (1 - weight) / players
        paid[0] = paid.get(0, 0.0) + max(0.0, 1 - sum(paid.values()))
        grown: dict[int, float] = {}
        for have, chance in ends.items():
            for prize, prize_chance in paid.items():
                grown[have + prize] = grown.get(have + prize, 0.0) + chance * prize_chance
        ends = grown
    return ends


def first_chance(ends: Sequence[Mapping[int, float]], seat: int) -> float:
    """The chance that ``seat``'s gold ends above every other seat's, each
    seat's gold drawn from its own distribution; a tie shares the first
    place evenly among the seats in it."""
    total = 0.0
    for gold, chance in ends[seat].items():
        # ties[t]: the chance that no other seat ends above and t end level.
        ties = [1.0]
        for other, theirs in enumerate(ends):
            if other == seat:
                continue
            below = sum(p for amount, p in theirs.items() if amount < gold)
            level = theirs.get(gold, 0.0)
            ties = [
                (ties[t] if t < len(ties) else 0.0) * below + (ties[t - 1] * level if t else 0.0)
                for t in range(len(ties) + 1)
            ]
        total += chance * sum(p / (1 + t) for t, p in enumerate(ties))
    return total


def table_chance(
    teams: Sequence[Sequence[str]], gold: Sequence[int], seat: int, ruleset: Ruleset, first_race: int,
    later_weight: float,
) -> float:
    """first_chance of ``seat`` with these teams and this gold before race ``first_race``."""
    ends = [
        final_gold(team, [other for index, other in enumerate(teams) if index != owner], gold[owner], ruleset,
                   first_race, later_weight)
        for owner, team in enumerate(teams)
    ]
    return first_chance(ends, seat)
