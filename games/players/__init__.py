"""Computer players. A computer seat, or a seat on autopilot, decides here:
at the "strong" and "expert" levels from what its seat may know (observe)
and nothing else; at the "simple" level as games.players.autoplay's modest
player does."""

from __future__ import annotations

import random

from games.engine import Action, Ruleset, State, observe

from . import expert, playout, strong
from .autoplay import sensible_action

# Offered at the table; "playout" is the bench's yardstick.
LEVELS = ("simple", "strong", "expert")


def warm_up(ruleset: Ruleset) -> None:
    """Work out once what every first bid of a process would otherwise work
    out itself: the finishing chances of a random team in each race (about
    half a second). Without it the first expert bid took up to 0.9 s of CPU."""
    for race in range(1, ruleset.races + 1):
        strong.field_chances(ruleset, race)


def choose(state: State, seat: int, level: str, rng: random.Random) -> Action | None:
    """The decision of the computer player of ``level`` sitting at ``seat``,
    which must be the seat to move."""
    if level == "strong":
        return strong.decide(observe(state, seat), state.ruleset, rng)
    if level == "expert":
        return expert.decide(observe(state, seat), state.ruleset, rng)
    if level == "simple":
        return sensible_action(state, rng)
    if level == "playout":
        return playout.decide(state, seat, rng)
    raise ValueError(f"no computer player of level {level!r}")
