"""The strong computer player: every decision weighed in gold, from its
observation alone.

- A bid is worth what the lot adds to the gold the player can expect from
  the races left (race_model), over what it would race with otherwise,
  averaged over the ways the unseen cards of the lot may fall; gold taken
  from the rivals counts too, since only the standings matter. It raises by
  one while the lot is worth more than the price.
- The Devil pushes whichever chair (or none) leaves the player's expected
  race gold furthest ahead of its rivals'.
- The last-placed player's removals take, from each display, the card whose
  loss (and random refill) helps the player most.
- An arrangement never changes a team's chances (the die names each slot
  alike), so the dealt order stays."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

from games.engine import Action, Bid, Pass, Push, Remove, Roll, Ruleset, landing, lowest_bid
from games.engine.observe import Observation

from . import race_model
from .view import drawn, my_seat, team_of, unseen

# Ways the unseen cards of a lot are drawn for one bid.
LOT_SAMPLES = 12
# A team's worth in a later race counts this much less for each race between:
# removals and substitute auctions change teams on the way.
LATER_RACE_WEIGHT = 0.8
# Gold kept back from a lot's worth, against the model's errors.
MARGIN = 1.0

FIELD = None  # a rival whose team is not known yet: a random team


def decide(view: Observation, ruleset: Ruleset, rng: random.Random) -> Action | None:
    decision = view["decision"]
    if decision == "bid":
        return _bid(view, ruleset, rng)
    if decision == "roll":
        return Roll()
    if decision == "push":
        return _push(view, ruleset)
    if decision == "remove":
        return _remove(view, ruleset)
    return None


# --- worth of a team ---------------------------------------------------------


@lru_cache(maxsize=64)
def field_chances(ruleset: Ruleset, race: int) -> tuple[float, ...]:
    """finish_chances of a team drawn at random from the whole deck, pushed
    as often as the deck's share of pushing cards."""
    pushed = race_model.rounded_rate(_field_push_chance(ruleset))
    counts = {bearer.code: bearer.count for bearer in ruleset.bearers}
    size = ruleset.display_size
    total = comb(ruleset.deck_size, size)
    mixed = [0.0] * race_model.HORIZON
    for team in combinations_with_replacement(sorted(counts), size):
        weight = 1.0
        for code, n in Counter(team).items():
            weight *= comb(counts[code], n)
        weight /= total
        if weight:
            for roll, chance in enumerate(race_model.chair_chances(team, ruleset, race, ruleset.start_space, pushed)):
                mixed[roll] += weight * chance
    return tuple(mixed)


@lru_cache(maxsize=8)
def _field_push_chance(ruleset: Ruleset) -> float:
    pushers = sum(bearer.count for bearer in ruleset.bearers if bearer.push)
    return pushers / ruleset.deck_size


@lru_cache(maxsize=200_000)
def _race_places(
    team: tuple[str, ...], rivals: tuple[tuple[str, ...] | None, ...], ruleset: Ruleset, race: int
) -> tuple[float, ...]:
    """The chance of each prize's place for ``team`` in race ``race`` against ``rivals``' teams."""
    rates = [race_model.push_chance(team, ruleset)] + [
        _field_push_chance(ruleset) if rival is FIELD else race_model.push_chance(rival, ruleset) for rival in rivals
    ]
    pushed = race_model.pushes_from(rates)
    mine = race_model.chair_chances(team, ruleset, race, ruleset.start_space, pushed[0])
    walks = [
        field_chances(ruleset, race) if rival is FIELD
        else race_model.chair_chances(rival, ruleset, race, ruleset.start_space, rate)
        for rival, rate in zip(rivals, pushed[1:], strict=True)
    ]
    return race_model.place_chances(mine, [(walk, 0.5) for walk in walks], len(ruleset.prizes[race - 1]), 0)


def _race_worth(
    team: tuple[str, ...], rivals: tuple[tuple[str, ...] | None, ...], ruleset: Ruleset, race: int
) -> float:
    """Expected gold of ``team`` from race ``race`` against ``rivals``' teams."""
    places = _race_places(team, rivals, ruleset, race)
    return sum(chance * prize for chance, prize in zip(places, ruleset.prizes[race - 1], strict=True))


def race_places(
    team: Sequence[str], rivals: Sequence[Sequence[str] | None], ruleset: Ruleset, race: int
) -> tuple[float, ...]:
    return _race_places(*_keys(team, rivals), ruleset, race)


def race_worth(team: Sequence[str], rivals: Sequence[Sequence[str] | None], ruleset: Ruleset, race: int) -> float:
    return _race_worth(*_keys(team, rivals), ruleset, race)


def _keys(
    team: Sequence[str], rivals: Sequence[Sequence[str] | None]
) -> tuple[tuple[str, ...], tuple[tuple[str, ...] | None, ...]]:
    return tuple(sorted(team)), tuple(sorted((tuple(sorted(r)) if r is not FIELD else FIELD for r in rivals), key=str))


def team_worth(
    team: Sequence[str],
    rivals: Sequence[Sequence[str] | None],
    ruleset: Ruleset,
    first_race: int,
    later_weight: float = LATER_RACE_WEIGHT,
) -> float:
    """Expected gold of ``team`` from race ``first_race`` to the last, each
    later race weighted down by ``later_weight``."""
    key, rival_keys = _keys(team, rivals)
    return sum(
        later_weight ** (race - first_race) * _race_worth(key, rival_keys, ruleset, race)
        for race in range(first_race, ruleset.races + 1)
    )


# --- bids --------------------------------------------------------------------


def _bid(view: Observation, ruleset: Ruleset, rng: random.Random) -> Action:
    auction = view["auction"]
    assert auction is not None  # a bid is asked for in an auction
    me = my_seat(view)
    lowest = lowest_bid(auction["high_bid"])
    gold = view["players"][me]["gold"]
    if lowest > gold:
        return Pass()
    worth = lot_worth(view, ruleset, rng)
    return Bid(lowest) if lowest <= min(gold, worth - MARGIN) else Pass()


def lot_worth(
    view: Observation,
    ruleset: Ruleset,
    rng: random.Random,
    samples: int = LOT_SAMPLES,
    later_weight: float = LATER_RACE_WEIGHT,
) -> float:
    """What buying this lot is worth to the player, in gold, over ``samples``
    ways the unseen cards may fall (``later_weight``: as team_worth's)."""
    auction = view["auction"]
    assert auction is not None
    me = my_seat(view)
    pool = unseen(view, ruleset)
    rivals: list[list[str] | None] = [team_of(view, s) or FIELD for s in range(len(view["players"])) if s != me]
    first_race = len(view["results"]) + 1
    players = len(view["players"])
    mine = team_of(view, me)
    if mine:
        otherwise = team_worth(mine, rivals, ruleset, first_race, later_weight)
    else:
        # Without this lot the player buys a later one, or the last team.
        otherwise = (
            team_worth_of_field(rivals, ruleset, first_race, pool, rng, samples, later_weight)
            - ruleset.last_team_price
        )
    gains = [
        team_worth(team, rivals, ruleset, first_race, later_weight) - otherwise
        for team in lot_teams(view, ruleset, rng, samples)
    ]
    # What the player gains, its rivals lose: the race prizes are fixed.
    return sum(gains) / len(gains) * players / (players - 1)


def lot_teams(view: Observation, ruleset: Ruleset, rng: random.Random, samples: int) -> list[list[str]]:
    """``samples`` ways the lot of the auction may turn out, its unseen cards
    drawn from the cards the player has not seen (one way if it sees them all)."""
    auction = view["auction"]
    assert auction is not None
    known = [card["code"] for card in auction["face_up"] + (auction["my_cards"] or []) if card is not None]
    missing = max(0, ruleset.lot_size - len(known))
    pool = unseen(view, ruleset)
    return [known + drawn(pool, missing, rng) for _ in range(samples if missing else 1)]


def team_worth_of_field(
    rivals: Sequence[Sequence[str] | None],
    ruleset: Ruleset,
    first_race: int,
    pool: list[str],
    rng: random.Random,
    samples: int = LOT_SAMPLES,
    later_weight: float = LATER_RACE_WEIGHT,
) -> float:
    worths = [
        team_worth(drawn(pool, ruleset.lot_size, rng), rivals, ruleset, first_race, later_weight)
        for _ in range(samples)
    ]
    return sum(worths) / len(worths)


# --- the Devil's push ----------------------------------------------------------


def _push(view: Observation, ruleset: Ruleset) -> Action:
    race = view["race"]
    assert race is not None
    me = my_seat(view)
    racing = [
        player["colour"] for player in view["players"]
        if race["chairs"][player["colour"]]["status"] == "racing" and player["seat"] != me
    ]
    best_target, best_score = None, race_edge(view, ruleset, None)
    for target in racing:
        score = race_edge(view, ruleset, target)
        if score > best_score + 1e-9:
            best_target, best_score = target, score
    return Push(best_target)


def race_edge(view: Observation, ruleset: Ruleset, pushed: str | None) -> float:
    """The player's expected gold from this race less its racing rivals'
    average, if ``pushed`` is pushed back now (None: nobody). A player whose
    chair has finished (a Devil may carry it over the line and still push)
    has its prize already: what is left to it is keeping the rivals' low."""
    race = view["race"]
    assert race is not None
    me = my_seat(view)
    players = len(view["players"])
    back = max(bearer.push for bearer in ruleset.bearers)
    chairs = {}
    for seat in range(players):
        colour = view["players"][seat]["colour"]
        chair = race["chairs"][colour]
        if chair["status"] != "racing":
            continue
        position = chair["position"]
        if colour == pushed:
            position, status = landing(ruleset, race["number"], position, -back)
            if status == "pond":
                continue  # out of the prizes
        chairs[seat] = position
    # Rolls go round clockwise from the seat after the pusher, who rolls last.
    order = {seat: (seat - me - 1) % players for seat in chairs}
    teams = {seat: team_of(view, seat) for seat in chairs}
    rates = race_model.pushes_received([teams[s] for s in chairs], ruleset)
    walks = {
        seat: race_model.chair_chances(teams[seat], ruleset, race["number"], chairs[seat], rate)
        for seat, rate in zip(chairs, rates, strict=True)
    }
    taken = len(race["arrivals"])

    def worth(seat: int) -> float:
        rivals = [(walks[s], 1.0 if order[s] < order[seat] else 0.0) for s in chairs if s != seat]
        return race_model.expected_prize(walks[seat], rivals, race["prizes"], taken)

    rivals = [worth(s) for s in chairs if s != me]
    mine = worth(me) if me in chairs else 0.0
    return mine - sum(rivals) / max(1, players - 1)


# --- the last-placed player's removals ---------------------------------------


def _remove(view: Observation, ruleset: Ruleset) -> Action:
    me = my_seat(view)
    pool = unseen(view, ruleset)
    refills = Counter(pool)
    next_race = len(view["results"]) + 1
    teams = [team_of(view, seat) for seat in range(len(view["players"]))]
    picks = []
    for seat, team in enumerate(teams):
        rivals = [t for s, t in enumerate(teams) if s != seat]

        # The next race only: teams change again by the one after. (Called
        # in this turn of the loop only, so it sees this seat's team.)
        def after(slot: int) -> float:
            rest = team[:slot] + team[slot + 1:]  # noqa: B023
            return sum(
                count * race_worth(rest + [code], rivals, ruleset, next_race)  # noqa: B023
                for code, count in refills.items()
            ) / max(1, len(pool))

        # Ties go to the lower slot.
        if seat == me:
            slot = max(range(len(team)), key=lambda s: (after(s), -s))
        else:
            slot = min(range(len(team)), key=lambda s: (after(s), s))
        picks.append((view["players"][seat]["colour"], slot + 1))
    order = ruleset.colours.index
    return Remove(tuple(sorted(picks, key=lambda pick: order(pick[0]))))

