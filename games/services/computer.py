"""Computer players at the table: a computer seat, or a seat on autopilot,
decides in the task that runs this, one decision to a transaction, through
the same decision service as a person (decisions.computer_decision)."""

from __future__ import annotations

import random

from django.conf import settings
from django.utils import timezone

from games import engine, players
from games.models import Game

from .decisions import computer_decision
from .enqueue import enqueue_now
from .errors import ServiceError, StaleDecision
from .game_state import load_state
from .seats import game_seats
from .timing import computer_level

# Decisions one task makes before handing the rest of a run of computer
# turns to a new task, so that no task holds a worker for a whole game.
DECISIONS_PER_TASK = 50


def warm_up() -> None:
    """What a worker process works out once before its first computer turn,
    so that no player's first decision pays for it."""
    for ruleset in engine.RULESETS.values():
        players.warm_up(ruleset)


def warm_up_at_worker_start() -> None:
    """Unless the settings say the workers are too short-lived to pay for it."""
    if settings.COMPUTER_WARM_UP_AT_WORKER_START:
        warm_up()


def computer_moves(*, game_id: int) -> int:
    """Let the computer players decide while one is to move; how many
    decisions were made. Each is chosen from a read of the game without a
    lock (thinking takes time) and applied under the version rule: a person
    or a moderator who got in first wins, and the choice is made again."""
    made = 0
    for _ in range(DECISIONS_PER_TASK):
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            return made
        state = load_state(game)
        mover = engine.to_move(state)
        seat = next((s for s in game_seats(game) if s.position == mover), None)
        level = computer_level(seat, timezone.now()) if seat is not None else None
        if mover is None or level is None:
            return made
        action = players.choose(state, mover, level, random.Random())
        if action is None:
            raise ValueError(f"the {level} computer player found no decision in game {game_id}")
        try:
            if computer_decision(game_id=game_id, seen_version=game.decision_version, action=action) is None:
                return made
        except StaleDecision:
            continue
        except ServiceError:
            return made
        made += 1
    enqueue_now("games.computer_moves", game_id)
    return made
