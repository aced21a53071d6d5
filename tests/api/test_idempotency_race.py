"""The same decision with the same Idempotency-Key sent twice at the same
moment (a client that retried before the first answer came): the decision
is applied once and both requests get its answer, one of them replayed.
Each request runs in its own thread and database connection, so the
transactions really overlap (tests/web/test_version_race.py explains how
on PostgreSQL and on SQLite)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import engine
from games.models import ActionRecord, ApiIdempotencyKey
from games.services.game_state import load_state
from tests.api.helpers import api_tokens, bearer
from tests.factories import started_game
from tests.web.test_version_race import race, writers_can_wait

ROUNDS = 10


def keyed_post(secret: str, body: dict, key: str):
    def contender():
        response = Client().post(
            "/api/v1/seat/decision", data=json.dumps(body), content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key, **bearer(secret),
        )
        return response.status_code, response["Idempotent-Replayed"], response.json()

    return contender


@pytest.mark.django_db(transaction=True)
def test_two_requests_with_one_key_at_once_apply_the_decision_once_and_answer_alike(tmp_path):
    with writers_can_wait(tmp_path) as database:
        game = started_game(3)
        secrets = api_tokens(game)
        for round_ in range(ROUNDS):
            game.refresh_from_db()
            state = load_state(game)
            mover = engine.to_move(state)
            body = {"decision": engine.format_action(engine.default_action(state)), "version": game.decision_version}
            records = ActionRecord.objects.filter(game=game, actor="player").count()
            key = f"race-{round_}"
            outcomes = race(keyed_post(secrets[mover], body, key), keyed_post(secrets[mover], body, key),
                            database=database)
            assert sorted(replayed for _status, replayed, _body in outcomes) == ["false", "true"], outcomes
            assert outcomes[0][0] == outcomes[1][0] == 200 and outcomes[0][2] == outcomes[1][2], outcomes
            assert ActionRecord.objects.filter(game=game, actor="player").count() == records + 1
            assert ApiIdempotencyKey.objects.filter(key=key).count() == 1
