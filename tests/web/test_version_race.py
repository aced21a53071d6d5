"""The version race (docs/architecture.md#the-version-rule): a player's click and
the deadline sweep, or two clicks of the same button, started at the same
moment from two threads, resolve to exactly one applied decision; the other
caller is told the decision was already made, and no email is queued twice.

Each contender runs in its own thread with its own database connection, so
the transactions really overlap in the database. On PostgreSQL the loser's
``UPDATE … WHERE version = seen`` waits for the winner's row lock and then
matches zero rows; on SQLite, IMMEDIATE transactions take the write lock at
BEGIN, so the loser waits (busy timeout) and then reads the new version.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client

from games import engine
from games.models import ActionRecord, Game, Notification, Seat
from games.services.decisions import deadline_expire, decision_submit
from games.services.errors import StaleDecision
from games.services.game_state import load_state
from games.web.forms import decision_form_data
from tests.factories import seat_at, started_game, tokens
from tests.web.pages import forms_of

APPLIED, STALE = "applied", "stale"
POSTGRES_ROUNDS = 60
ANY_DATABASE_ROUNDS = 25
JOIN_TIMEOUT = 60


def require_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "the version race under real row locks needs PostgreSQL: set "
            "DATABASE_URL=postgres://… (CI does); the SQLite variants below still run"
        )


@contextmanager
def writers_can_wait(tmp_path):
    """The database the racing threads share, one that behaves like production.

    SQLite's in-memory test database is a shared-cache database, whose table
    locks fail at once with "database table is locked" instead of honouring
    the busy timeout, so two overlapping writers cannot be tested on it. On
    SQLite this switches the default alias, for this thread and the racing
    ones, to a throwaway file with the production settings (WAL, IMMEDIATE
    transactions, busy timeout) and migrates it. Yields the settings each
    racing thread must connect with (None: the default is fine)."""
    current = connections["default"]
    if current.vendor != "sqlite" or not current.is_in_memory_db():
        yield None
        return
    settings_dict = {**current.settings_dict, "NAME": str(tmp_path / "race.sqlite3")}
    file_db = current.__class__(settings_dict, "default")
    connections["default"] = file_db
    try:
        call_command("migrate", verbosity=0, interactive=False)
        yield settings_dict
    finally:
        file_db.close()
        connections["default"] = current


def race(*contenders, database: dict | None = None) -> list[str]:
    """Run the callables at the same moment, one thread and one database
    connection each; returns their outcomes (APPLIED or STALE) in order.
    Any other exception, or a thread that never finishes, fails the test."""
    barrier = threading.Barrier(len(contenders))
    outcomes: list = [None] * len(contenders)
    wrapper = type(connections["default"])

    def run(index, contender):
        try:
            if database is not None:
                connections["default"] = wrapper(database, "default")
            barrier.wait(timeout=10)
            outcomes[index] = contender()
        except BaseException as error:  # reported below, in the test's thread
            outcomes[index] = error
        finally:
            connections["default"].close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a contender hung (deadlock?)"
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise AssertionError(f"a contender failed instead of winning or losing cleanly: {outcome!r}") from outcome
    return outcomes


# ---- the contenders ----------------------------------------------------


def by_deadline(game_id: int, seen_version: int):
    def contender():
        try:
            deadline_expire(game_id=game_id, seen_version=seen_version)
        except StaleDecision:
            return STALE
        return APPLIED

    return contender


def by_service(seat_id: int, text: str, seen_version: int):
    def contender():
        seat = Seat.objects.select_related("game").get(pk=seat_id)
        try:
            decision_submit(seat=seat, text=text, seen_version=seen_version)
        except StaleDecision:
            return STALE
        return APPLIED

    return contender


def by_post(token: str, data: dict):
    """The decision form posted as a browser would: 302 back to the seat
    page when applied, 409 "Already decided" when someone got there first."""

    def contender():
        response = Client().post(f"/s/{token}/act", data)
        if response.status_code == 409:
            assert "Already decided" in response.content.decode()
            return STALE
        assert response.status_code == 302, response.content.decode()[:2000]
        return APPLIED

    return contender


# ---- the pending decision and what a round changed -------------------------


@dataclass
class Decision:
    game: Game
    seat: Seat
    state: engine.State
    seen_version: int
    version: int
    records: int
    notifications: int


def pending_decision(game: Game | None, players: int = 4) -> Decision:
    """The pending decision of ``game``, or of a new game once it is over."""
    if game is not None:
        game.refresh_from_db()
    if game is None or game.status != Game.Status.RUNNING:
        game = started_game(players)
    state = load_state(game)
    return Decision(
        game=game,
        seat=seat_at(game, engine.to_move(state)),
        state=state,
        seen_version=game.decision_version,
        version=game.version,
        records=ActionRecord.objects.filter(game=game).count(),
        notifications=Notification.objects.filter(game=game).count(),
    )


def random_decision(state: engine.State, rng: random.Random) -> str:
    options = engine.legal_actions(state)
    # Passing half the time keeps auctions, and so the rounds, short.
    if engine.decision_kind(state) == "bid" and rng.random() < 0.5:
        return "pass"
    return engine.format_action(options[rng.randrange(len(options))])




# Records a decision brings along on its own: chance outcomes and the
# standing orders that answer the decisions after it.
# Moves nobody chose in this round: chance, standing orders, and the autopilot
# a seat gets after missing deadlines (the deadline contender misses many).
AUTOMATIC = {ActionRecord.Actor.CHANCE, ActionRecord.Actor.ORDER, ActionRecord.Actor.AUTOPILOT}


def assert_applied_once(decision: Decision, outcomes: list[str], winner_actor: dict[int, str]) -> str:
    """Exactly one decision was recorded for the pending one, the version grew
    by exactly the records added, the other contender lost, and the outbox got
    no email twice: the round's emails belong to its new versions, with one
    "turn" email for the next person to move (or an "over" for every seat)."""
    game = decision.game
    game.refresh_from_db()
    assert sorted(outcomes) == [APPLIED, STALE], outcomes
    added = list(ActionRecord.objects.filter(game=game, seq__gt=decision.version).order_by("seq"))
    assert ActionRecord.objects.filter(game=game).count() == decision.records + len(added)
    assert game.version == decision.version + len(added)
    assert [r.seq for r in added] == list(range(decision.version + 1, game.version + 1))
    decided = [r for r in added if r.actor not in AUTOMATIC]
    assert len(decided) == 1, [(r.seq, r.actor, r.action) for r in added]
    (record,) = decided
    assert record.seq == decision.version + 1
    assert record.seat == decision.seat.position
    assert record.actor == winner_actor[outcomes.index(APPLIED)]
    assert game.decision_version == game.version > decision.seen_version

    notifications = Notification.objects.filter(game=game)
    new = list(notifications.filter(version__gt=decision.version))
    assert notifications.count() == decision.notifications + len(new)
    # The autopilot's decisions after the round are versions of their own.
    assert {n.version for n in new} <= {r.seq for r in added}
    keys = [(n.seat_id, n.kind, n.version) for n in new]
    assert len(keys) == len(set(keys)), keys
    kinds = Counter(n.kind for n in new)
    if game.status == Game.Status.OVER:
        assert kinds["over"] == game.seats.count()
    else:
        mover = engine.to_move(load_state(game))
        turn = [n for n in new if n.kind == "turn"]
        assert [n.seat.position for n in turn] == [mover]
    return record.actor


# ---- PostgreSQL: many rounds under real row locks --------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("player_path", ["web POST", "decision_submit"])
def test_a_deadline_and_a_players_decision_racing_on_postgresql_apply_exactly_one_every_time(player_path):
    require_postgresql()
    rng = random.Random(6)
    game, winners = None, Counter()
    for _ in range(POSTGRES_ROUNDS):
        decision = pending_decision(game)
        game = decision.game
        text = random_decision(decision.state, rng)
        if player_path == "web POST":
            player = by_post(tokens(game)[decision.seat.position], decision_form_data(text, decision.seen_version))
        else:
            player = by_service(decision.seat.pk, text, decision.seen_version)
        deadline = by_deadline(game.pk, decision.seen_version)
        # Alternate which thread is started first, so neither always leads.
        contenders, actors = [player, deadline], [ActionRecord.Actor.PLAYER, ActionRecord.Actor.DEADLINE]
        if rng.random() < 0.5:
            contenders.reverse()
            actors.reverse()
        outcomes = race(*contenders)
        winners[assert_applied_once(decision, outcomes, dict(enumerate(actors)))] += 1
    print(f"\n{player_path}: winners over {POSTGRES_ROUNDS} rounds: {dict(winners)}")
    assert sum(winners.values()) == POSTGRES_ROUNDS


# ---- any database (SQLite: a file, IMMEDIATE transactions) -----------------


@pytest.mark.heavy
@pytest.mark.django_db(transaction=True)
def test_a_deadline_and_a_players_post_racing_apply_exactly_one_and_the_loser_is_told(tmp_path):
    rng = random.Random(7)
    with writers_can_wait(tmp_path) as database:
        game, winners = None, Counter()
        for _ in range(ANY_DATABASE_ROUNDS):
            decision = pending_decision(game, players=3)
            game = decision.game
            text = random_decision(decision.state, rng)
            player = by_post(tokens(game)[decision.seat.position], decision_form_data(text, decision.seen_version))
            outcomes = race(player, by_deadline(game.pk, decision.seen_version), database=database)
            actors = {0: ActionRecord.Actor.PLAYER, 1: ActionRecord.Actor.DEADLINE}
            winners[assert_applied_once(decision, outcomes, actors)] += 1
        assert sum(winners.values()) == ANY_DATABASE_ROUNDS


@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_a_decision_form_applies_it_once(tmp_path):
    rng = random.Random(8)
    with writers_can_wait(tmp_path) as database:
        game = None
        for _ in range(ANY_DATABASE_ROUNDS):
            decision = pending_decision(game, players=3)
            game = decision.game
            token = tokens(game)[decision.seat.position]
            data = filled_in_decision_form(Client().get(f"/s/{token}/"), rng)
            assert data["version"] == str(decision.seen_version)
            # The same form data sent twice at once, as a double click does.
            outcomes = race(by_post(token, data), by_post(token, data), database=database)
            actors = {0: ActionRecord.Actor.PLAYER, 1: ActionRecord.Actor.PLAYER}
            assert_applied_once(decision, outcomes, actors)


def filled_in_decision_form(page, rng: random.Random) -> dict:
    """The data a person sends from the seat page's decision form: a pass in
    an auction, otherwise a random choice of each set of radio buttons."""
    forms = [f for f in forms_of(page) if f.action.endswith("/act")]
    assert forms, "the seat to move has no decision form"
    for form in forms:
        if ("action", "pass") in [(b[0], b[1]) for b in form.buttons]:
            return form.values() | {"action": "pass"}
    (form,) = forms
    return form.filled_in_at_random(rng)
