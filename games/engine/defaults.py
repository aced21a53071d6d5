"""What happens for a seat that lets its deadline pass
(docs/rules-notes.md#defaults-when-a-deadline-passes)."""

from __future__ import annotations

from .actions import Action, Pass, Push, Remove, Roll
from .rules import decision_kind
from .state import RACING, State, clockwise_from, to_move


def default_action(state: State) -> Action | None:
    """The default for the pending decision; None when no seat is deciding."""
    kind = decision_kind(state)
    if kind == "bid":
        return Pass()
    if kind == "roll":
        return Roll()
    if kind == "push":
        return Push(default_push_target(state))
    if kind == "remove":
        return default_removal(state)
    return None


def default_push_target(state: State) -> str | None:
    race = state.race
    assert race is not None  # a push is decided during a race
    pusher = race.turn
    racing = [
        s for s in clockwise_from(pusher, state.players) if s != pusher and race.status[s] == RACING
    ]
    if not racing:
        return None
    best = max(race.positions[s] for s in racing)
    return state.colours[next(s for s in racing if race.positions[s] == best)]


def default_removal(state: State) -> Remove:
    """From each opponent their best card, from one's own display the worst;
    ties go to the lower slot."""
    remover = to_move(state)
    rank = state.ruleset.rank_of
    picks = []
    for seat, display in enumerate(state.displays):
        slots = range(len(display))
        if seat == remover:
            slot = min(slots, key=lambda i: (rank(display[i]), i))
        else:
            slot = min(slots, key=lambda i: (-rank(display[i]), i))
        picks.append((state.colours[seat], slot + 1))
    order = state.ruleset.colours.index
    return Remove(tuple(sorted(picks, key=lambda pick: order(pick[0]))))
