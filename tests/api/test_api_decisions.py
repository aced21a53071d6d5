"""Playing a seat through the JSON API: the seat's view, its legal decisions,
decisions under the version rule, and every refusal as JSON with a stable
code that changes nothing."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.models import ActionRecord, Game
from games.services.game_state import load_state
from tests.api.helpers import api_get, api_post, mover
from tests.factories import play_steps, play_until

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return game.version, game.decision_version, game.state, ActionRecord.objects.filter(game=game).count()


def test_the_seat_view_lists_the_legal_decisions_for_the_seat_to_move_only(client, game, secrets):
    to_move = mover(game)
    for position, secret in secrets.items():
        view = api_get(client, "/api/v1/seat", secret).json()
        assert view["seat"]["position"] == position
        assert view["decision"]["version"] == game.decision_version
        assert view["decision"]["yours"] is (position == to_move)
        if position == to_move:
            expected = [engine.format_action(a) for a in engine.legal_actions(load_state(game))]
            assert view["decision"]["legal"] == expected and "pass" in expected
        else:
            assert view["decision"]["legal"] == []


def test_a_legal_decision_with_its_version_is_applied(client, game, secrets):
    to_move = mover(game)
    legal = api_get(client, "/api/v1/seat", secrets[to_move]).json()["decision"]["legal"]
    response = api_post(client, secrets[to_move], {"decision": legal[-1], "version": game.decision_version})
    assert response.status_code == 200, response.content
    assert response.json()["accepted"] == legal[-1]
    record = ActionRecord.objects.filter(game=game, seat=to_move).order_by("-seq").first()
    assert record.action == legal[-1] and record.source == ActionRecord.Source.API
    seen = game.version
    game.refresh_from_db()
    assert response.json()["game"]["version"] == game.version > seen


@pytest.mark.parametrize(
    "body, status, code",
    [
        pytest.param(b"{not json", 400, "bad_request", id="not JSON"),
        pytest.param([1, 2], 400, "bad_request", id="not an object"),
        pytest.param({"decision": "pass"}, 400, "bad_request", id="no version"),
        pytest.param({"decision": "pass", "version": "7"}, 400, "bad_request", id="version as text"),
        pytest.param({"decision": "pass", "version": True}, 400, "bad_request", id="version as boolean"),
        pytest.param({"decision": "", "version": 0}, 400, "bad_request", id="empty decision"),
        pytest.param({"decision": "x" * 201, "version": 0}, 400, "bad_request", id="decision too long"),
        pytest.param({"decision": "dance a jig", "version": None}, 400, "bad_request", id="version null"),
        pytest.param({"decision": "dance a jig", "version": "current"}, 400, "bad_request", id="version a word"),
        pytest.param({"decision": "dance a jig", "version": "VERSION"}, 422, "malformed_decision", id="malformed"),
        pytest.param({"decision": "bid 999", "version": "VERSION"}, 422, "illegal_decision", id="bid above my gold"),
        pytest.param(
            {"decision": "push blue", "version": "VERSION"}, 422, "illegal_decision", id="a push in an auction"
        ),
        pytest.param({"decision": "pass", "version": "STALE"}, 409, "stale_decision", id="stale version"),
    ],
)
def test_a_refused_decision_answers_its_code_and_changes_nothing(client, game, secrets, body, status, code):
    if isinstance(body, dict) and body.get("version") in ("VERSION", "STALE"):
        body = {**body, "version": game.decision_version + (5 if body["version"] == "STALE" else 0)}
    before = snapshot(game)
    response = api_post(client, secrets[mover(game)], body)
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]
    assert snapshot(game) == before


def test_a_decision_out_of_turn_is_refused_and_changes_nothing(client, game, secrets):
    other = (mover(game) + 1) % 4
    before = snapshot(game)
    response = api_post(client, secrets[other], {"decision": "pass", "version": game.decision_version})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "not_your_turn")
    assert snapshot(game) == before


def test_the_same_decision_sent_twice_is_applied_once(client, game, secrets):
    to_move = mover(game)
    body = {"decision": "pass", "version": game.decision_version}
    assert api_post(client, secrets[to_move], body).status_code == 200
    again = api_post(client, secrets[to_move], body)
    assert (again.status_code, again.json()["error"]["code"]) == (409, "stale_decision")
    assert ActionRecord.objects.filter(game=game, seat=to_move, actor="player").count() == 1


def test_a_decision_in_a_paused_game_is_refused_as_not_running(client, game, secrets):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PAUSED)
    before = snapshot(game)
    response = api_post(client, secrets[mover(game)], {"decision": "pass", "version": game.decision_version})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "game_not_running")
    assert snapshot(game) == before


def test_a_seat_arranges_its_team_through_the_api(client, game, secrets):
    game = play_until(
        game, lambda state: any(engine.can_arrange(state, s) and len(state.displays[s]) >= 2 for s in range(4))
    )
    state = load_state(game)
    seat = next(s for s in range(4) if engine.can_arrange(state, s) and len(state.displays[s]) >= 2)
    view = api_get(client, "/api/v1/seat", secrets[seat]).json()
    assert view["arrange"]["allowed"] is True
    codes = view["arrange"]["codes"]
    reordered = codes[1:] + codes[:1]
    response = api_post(client, secrets[seat], {"decision": "arrange " + " ".join(reordered), "version": 0})
    assert response.status_code == 200, response.content
    assert api_get(client, "/api/v1/seat", secrets[seat]).json()["arrange"]["codes"] == reordered


def test_the_history_comes_as_events_in_pages(client, game, secrets):
    game = play_steps(game, 30, random.Random(3))
    first = api_get(client, "/api/v1/seat/history", secrets[0]).json()
    seqs = [entry["seq"] for entry in first["entries"]]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs)) and seqs
    # A roll's outcome is the chance step after it, which carries the events.
    assert all(entry["events"] and entry["text"] or entry["decision"] == "roll" for entry in first["entries"])
    later = api_get(client, f"/api/v1/seat/history?after={seqs[len(seqs) // 2]}", secrets[0]).json()
    assert [entry["seq"] for entry in later["entries"]] == seqs[len(seqs) // 2 + 1 :]
    assert later["more"] is False
    refused = api_get(client, "/api/v1/seat/history?after=-1", secrets[0])
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "bad_request")


def test_a_spectator_reads_a_game_without_a_token_and_sees_no_legal_decisions(client, game):
    view = api_get(client, f"/api/v1/games/{game.public_id}").json()
    assert view["game"]["id"] == game.public_id
    assert view["decision"]["yours"] is False and view["decision"]["legal"] == []
    assert "seat" not in view and view["observation"]["viewer"] is None
    assert api_get(client, f"/api/v1/games/{game.public_id}/history").status_code == 200
    missing = api_get(client, "/api/v1/games/nosuchgame")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")


def test_the_errors_are_in_the_seats_language(client, game, secrets):
    to_move = mover(game)
    game.seats.filter(position=to_move).update(language="de")
    response = api_post(client, secrets[to_move], {"decision": "pass", "version": game.decision_version + 3})
    assert response["Content-Language"] == "de"
    assert response.json()["error"]["code"] == "stale_decision"
    assert "Entscheidung" in response.json()["error"]["message"]


def test_api_answers_are_never_cached_and_wrong_methods_answer_json(client, game, secrets):
    response = api_get(client, "/api/v1/seat", secrets[0])
    assert response["Cache-Control"] == "no-store"
    wrong = api_get(client, "/api/v1/seat/decision", secrets[0])
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (405, "method_not_allowed")
    unknown = api_get(client, "/api/v1/nothing/here", secrets[0])
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "not_found")
