"""Retrying safely: the history names who made every decision (and shows a
roll before the chance outcome it caused), an Idempotency-Key makes a
retried decision answer as the first one did and apply once, a stale
decision says who decided first and how the game stands, and an
arrangement that changes nothing says so."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import engine
from games.models import ActionRecord, ApiIdempotencyKey, Game
from games.services.api_tokens import api_token_create
from games.services.decisions import deadline_expire
from games.services.game_state import load_state
from tests.api.helpers import api_get, api_post, bearer, mover
from tests.factories import play_until, seat_at

pytestmark = pytest.mark.django_db


def keyed_post(client, secret: str, body: dict, key: str):
    return api_post(client, secret, body, HTTP_IDEMPOTENCY_KEY=key)


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return game.version, game.decision_version, ActionRecord.objects.filter(game=game).count()


def test_a_players_own_roll_is_in_the_history_before_the_chance_outcome_it_caused(client, game, secrets):
    game = play_until(game, lambda state: engine.decision_kind(state) == "roll")
    roller = mover(game)
    response = api_post(client, secrets[roller], {"decision": "roll", "version": game.decision_version})
    assert response.status_code == 200, response.content
    entries = api_get(client, f"/api/v1/seat/history?after={game.version}", secrets[0]).json()["entries"]
    roll, outcome = entries[0], entries[1]
    assert (roll["actor"], roll["source"], roll["decision"], roll["seq"]) == ("player", "api", "roll", game.version + 1)
    assert roll["colour"] == seat_at(game, roller).colour
    assert (outcome["actor"], outcome["decision"], outcome["seq"]) == ("chance", None, game.version + 2)
    assert outcome["events"][0]["type"] == "roll" and outcome["events"][0]["colour"] == roll["colour"]


def test_the_history_says_a_deadline_decided_and_a_chance_step_names_no_secret(client, game, secrets):
    to_move = mover(game)
    deadline_expire(game_id=game.pk, seen_version=game.decision_version)
    entries = api_get(client, "/api/v1/seat/history", secrets[0]).json()["entries"]
    by_deadline = [entry for entry in entries if entry["actor"] == "deadline"]
    assert len(by_deadline) == 1
    assert by_deadline[0]["source"] == "timer" and by_deadline[0]["decision"] == "pass"
    assert by_deadline[0]["colour"] == seat_at(game, to_move).colour
    assert all(entry["decision"] is None for entry in entries if entry["actor"] == "chance")
    drawn = ActionRecord.objects.filter(game=game, action__startswith="draw").values_list("action", flat=True)
    assert drawn and not any(f'"{action}"' in str(entries).replace("'", '"') for action in drawn)


def test_the_same_idempotency_key_answers_the_same_result_and_applies_the_decision_once(client, game, secrets):
    to_move = mover(game)
    body = {"decision": "pass", "version": game.decision_version}
    first = keyed_post(client, secrets[to_move], body, "retry-1")
    assert first.status_code == 200 and first["Idempotent-Replayed"] == "false"
    after_first = snapshot(game)
    again = keyed_post(client, secrets[to_move], body, "retry-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert snapshot(game) == after_first
    assert ActionRecord.objects.filter(game=game, seat=to_move, actor="player").count() == 1


def test_without_a_key_the_same_retry_is_refused_as_stale(client, game, secrets):
    to_move = mover(game)
    body = {"decision": "pass", "version": game.decision_version}
    assert api_post(client, secrets[to_move], body).status_code == 200
    again = api_post(client, secrets[to_move], body)
    assert (again.status_code, again.json()["error"]["code"]) == (409, "stale_decision")
    assert "Idempotent-Replayed" not in again


def test_the_same_idempotency_key_with_another_decision_is_refused_and_changes_nothing(client, game, secrets):
    to_move = mover(game)
    version = game.decision_version
    assert keyed_post(client, secrets[to_move], {"decision": "pass", "version": version}, "k").status_code == 200
    before = snapshot(game)
    other = keyed_post(client, secrets[to_move], {"decision": "bid 3", "version": version}, "k")
    assert (other.status_code, other.json()["error"]["code"]) == (422, "idempotency_key_reused")
    assert snapshot(game) == before


def test_a_refusal_is_remembered_with_its_key_as_well(client, game, secrets):
    not_moving = (mover(game) + 1) % 4
    body = {"decision": "pass", "version": game.decision_version}
    first = keyed_post(client, secrets[not_moving], body, "r")
    assert (first.status_code, first.json()["error"]["code"]) == (409, "not_your_turn")
    again = keyed_post(client, secrets[not_moving], body, "r")
    assert (again.status_code, again.json(), again["Idempotent-Replayed"]) == (409, first.json(), "true")


def test_keys_belong_to_one_token(client, game, secrets):
    to_move = mover(game)
    _token, second_secret = api_token_create(seat=seat_at(game, to_move), label="second bot")
    body = {"decision": "pass", "version": game.decision_version}
    assert keyed_post(client, secrets[to_move], body, "shared").status_code == 200
    other = keyed_post(client, second_secret, body, "shared")
    assert other["Idempotent-Replayed"] == "false"
    assert other.json()["error"]["code"] == "stale_decision"


def test_a_key_is_forgotten_after_a_day(client, game, secrets):
    to_move = mover(game)
    body = {"decision": "pass", "version": game.decision_version}
    keyed_post(client, secrets[to_move], body, "old")
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        later = keyed_post(client, secrets[to_move], body, "old")
        assert later["Idempotent-Replayed"] == "false"
        assert later.json()["error"]["code"] == "stale_decision"
    assert ApiIdempotencyKey.objects.filter(key="old").count() == 1


@pytest.mark.parametrize("key", ["", " padded ", "x" * 256, "umlaut-ä"])
def test_an_idempotency_key_that_is_no_key_is_a_bad_request(client, game, secrets, key):
    to_move = mover(game)
    before = snapshot(game)
    response = keyed_post(client, secrets[to_move], {"decision": "pass", "version": game.decision_version}, key)
    assert (response.status_code, response.json()["error"]["code"]) == (400, "bad_request")
    assert snapshot(game) == before


def test_a_stale_decision_names_who_decided_first_and_carries_the_game_as_it_stands(client, game, secrets):
    to_move = mover(game)
    seen = game.decision_version
    deadline_expire(game_id=game.pk, seen_version=seen)
    response = api_post(client, secrets[to_move], {"decision": "bid 2", "version": seen})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "stale_decision")
    body = response.json()
    assert body["decided_by"]["actor"] == "deadline" and body["decided_by"]["source"] == "timer"
    assert body["decided_by"]["seq"] == seen + 1 and body["decided_by"]["colour"] == seat_at(game, to_move).colour
    game.refresh_from_db()
    assert body["current"]["game"]["version"] == game.version
    assert body["current"]["decision"]["version"] == game.decision_version
    assert body["current"]["seat"]["position"] == to_move


def test_a_stale_decision_from_the_future_names_nobody(client, game, secrets):
    to_move = mover(game)
    response = api_post(client, secrets[to_move], {"decision": "pass", "version": game.decision_version + 5})
    assert response.json()["decided_by"] is None and response.json()["current"]["seat"]["position"] == to_move


def test_an_arrangement_in_the_order_the_team_has_says_it_changed_nothing(client, game, secrets):
    # Two different bearers at least: a team of four alike has no other order.
    def can_reorder(state, seat):
        codes = {state.ruleset.code_of(card) for card in state.displays[seat]}
        return engine.can_arrange(state, seat) and len(codes) >= 2

    game = play_until(game, lambda state: any(can_reorder(state, s) for s in range(4)))
    state = load_state(game)
    seat = next(s for s in range(4) if can_reorder(state, s))
    codes = api_get(client, "/api/v1/seat", secrets[seat]).json()["arrange"]["codes"]
    before = snapshot(game)
    same = api_post(client, secrets[seat], {"decision": "arrange " + " ".join(codes), "version": 0})
    assert same.status_code == 200 and same.json()["changed"] is False
    assert snapshot(game) == before
    moved = api_post(client, secrets[seat], {"decision": "arrange " + " ".join(codes[1:] + codes[:1]), "version": 0})
    assert moved.status_code == 200 and moved.json()["changed"] is True
    assert snapshot(game)[0] == before[0] + 1


def test_a_decision_answer_says_it_changed_the_game(client, game, secrets):
    response = api_post(client, secrets[mover(game)], {"decision": "pass", "version": game.decision_version})
    assert response.json()["changed"] is True


def test_the_idempotency_key_header_is_read_whatever_its_case(client, game, secrets):
    to_move = mover(game)
    body = {"decision": "pass", "version": game.decision_version}
    api_post(client, secrets[to_move], body, HTTP_IDEMPOTENCY_KEY="case")
    again = client.post(
        "/api/v1/seat/decision", data=body, content_type="application/json",
        headers={"idempotency-key": "case"}, **bearer(secrets[to_move]),
    )
    assert again["Idempotent-Replayed"] == "true"
