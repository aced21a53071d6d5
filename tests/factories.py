"""Games in any state, made through the services as a real game would be."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from django.utils import timezone

from games import engine
from games.models import Game, Seat
from games.services.computer import computer_moves
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.links import seat_token
from games.services.setup import game_create, seat_accept
from games.services.timing import computer_level

COLOURS = ("red", "yellow", "green", "blue", "white", "black")


def invited_game(players: int = 4, ruleset: str = "classic", decision_hours: int = 24) -> Game:
    """A new game waiting for its players: no seat accepted yet."""
    return game_create(
        host_name="Host",
        host_email="p0@example.com",
        other_emails=[f"p{i}@example.com" for i in range(1, players)],
        decision_hours=decision_hours,
        ruleset_name=ruleset,
    )


def seats_taken(
    game: Game,
    positions: Iterable[int] | None = None,
    time_zones: Sequence[str] = ("Europe/Berlin",),
    name: str = "Player {}",
) -> Game:
    """The seats at ``positions`` (all: the game starts) accepted in seat
    order, each with its colour in seat order, ``name`` with its position and
    the time zone at its position in ``time_zones`` (the last one repeats)."""
    seats = Seat.objects.filter(game=game).order_by("position")
    if positions is not None:
        seats = seats.filter(position__in=list(positions))
    for seat in seats:
        seat_accept(
            seat=seat,
            colour=COLOURS[seat.position],
            display_name=name.format(seat.position),
            time_zone=time_zones[min(seat.position, len(time_zones) - 1)],
        )
    game.refresh_from_db()
    return game


def started_game(players: int = 4, ruleset: str = "classic", decision_hours: int = 24) -> Game:
    """A running game: created, every seat accepted (colours in seat order)."""
    return seats_taken(invited_game(players, ruleset, decision_hours))


def tokens(game: Game) -> dict[int, str]:
    """Each seat's link secret, by position."""
    return {seat.position: seat_token(seat) for seat in Seat.objects.filter(game=game).select_related("game")}


def seat_at(game: Game, position: int) -> Seat:
    return Seat.objects.select_related("game").get(game=game, position=position)


def play_steps(game: Game, steps: int, rng: random.Random | None = None, choose=None) -> Game:
    """Make ``steps`` decisions through decision_submit, each a random legal
    action of the seat to move (or ``choose(state, rng)``); stops at game end."""
    rng = rng or random.Random(0)
    table = _Table(game)
    for _ in range(steps):
        if game.status != Game.Status.RUNNING:
            break
        table.decide(load_state(game), rng, choose)
    return game


def computer_turns(game: Game) -> int:
    """What the computer players' task does after a commit (a test inside a
    transaction runs no work after commit): their decisions, if one is to move."""
    return computer_moves(game_id=game.pk)


def play_until(game: Game, done, rng: random.Random | None = None, limit: int = 5000) -> Game:
    """Play random legal decisions until ``done(state)`` holds (or the game ends)."""
    rng = rng or random.Random(0)
    table = _Table(game)
    for _ in range(limit):
        if game.status != Game.Status.RUNNING:
            return game
        state = load_state(game)
        if done(state):
            return game
        table.decide(state, rng, None)
    raise AssertionError("the condition was never reached")


class _Table:
    """A game being played by the helpers above: its seats read once (a
    decision reads them again under its lock, so stale fields do no harm),
    and the computer players' task run only where a computer player sits.
    Those helpers make most of the suite's decisions; a seat read, a second
    refresh and a task with nothing to do each step cost a third of them."""

    def __init__(self, game: Game) -> None:
        game.refresh_from_db()
        self.game = game
        self.seats = {seat.position: seat for seat in Seat.objects.filter(game=game)}
        now = timezone.now()
        self.computers = any(computer_level(seat, now) for seat in self.seats.values())

    def decide(self, state: engine.State, rng: random.Random, choose) -> None:
        """The seat to move decides; ``self.game`` is refreshed in place."""
        if choose is not None:
            action = choose(state, rng)
        else:
            options = engine.legal_actions(state)
            action = options[rng.randrange(len(options))]
        decision_submit(
            seat=self.seats[engine.to_move(state)],
            text=engine.format_action(action),
            seen_version=self.game.decision_version,
        )
        if self.computers:
            computer_turns(self.game)
        self.game.refresh_from_db()


def next_turn_of(game: Game, position: int, rng: random.Random | None = None) -> Game:
    """Play on until the seat at ``position`` is to move anew: a turn that
    comes after this call (the seat may be the one to move already)."""
    play_until(game, lambda state: engine.to_move(state) != position, rng)
    return play_until(game, lambda state: engine.to_move(state) == position, rng)


def with_gold(game: Game, gold: list[int]) -> Game:
    """The same game with each seat's gold (by position) set by hand: how a
    finished game with a chosen tie is made without playing until one comes."""
    state = dict(game.state)
    state["gold"] = list(gold)
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return game
