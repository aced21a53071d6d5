"""What each decision box shows beside its form (issue 29), worked out from
the ruleset as the engine moves chairs: the faces of the roller's team and
where each carries the chair, where the Devil's push would put each racing
chair (the shell pond named when it falls in), and what winning a lot costs."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils import translation

from games import engine
from games.selectors.decision import bid_terms, push_targets, roll_faces
from games.services.game_state import load_state
from tests.factories import play_until, started_game, tokens

CLASSIC = engine.RULESETS["classic"]


def _card(code: str) -> dict:
    return {"id": 0, "code": code}


def _observation(positions: dict[str, int], display: list[str], last: str | None = None) -> dict:
    return {
        "decision": "push" if last else "roll",
        "players": [
            {"colour": colour, "gold": 30, "display": [_card(code) for code in display]} for colour in positions
        ],
        "auction": None,
        "race": {
            "number": 1,
            "chairs": {colour: {"position": space, "status": "racing"} for colour, space in positions.items()},
            "last_roll": None if last is None else {"colour": "red", "face": 1, "code": last},
        },
    }


def test_a_push_that_sends_a_chair_behind_the_last_space_names_the_pond():
    observation = _observation({"red": 6, "blue": -1, "green": 4}, ["devil", "+1", "+2", "+3"], last="devil")
    with translation.override("en"):
        targets = {t["colour"]: t for t in push_targets(CLASSIC, observation, "red")}
    assert set(targets) == {"blue", "green"}  # never the roller's own chair
    assert targets["blue"]["now"] == "space -1" and targets["blue"]["then"] == "into the shell pond"
    assert targets["blue"]["pond"]
    assert targets["green"]["then"] == "space 2" and not targets["green"]["pond"]
    with translation.override("de"):
        german = {t["colour"]: t for t in push_targets(CLASSIC, observation, "red")}
    assert german["blue"]["then"] == "in den Muschelteich"


def test_a_push_to_the_start_space_says_start():
    observation = _observation({"red": 6, "blue": 2}, ["devil", "+1", "+2", "+3"], last="devil")
    (target,) = push_targets(CLASSIC, observation, "red")
    assert target["then"] == "START"


def test_the_faces_are_in_slot_order_and_say_where_each_carries_the_chair():
    observation = _observation({"red": 13, "blue": 0}, ["goof", "+1", "devil", "+5"])
    with translation.override("en"):
        faces = roll_faces(CLASSIC, observation, "red")
    assert [face["face"] for face in faces] == [1, 2, 3, 4]
    assert [face["code"] for face in faces] == ["goof", "+1", "devil", "+5"]
    assert faces[0]["does"] == "back 2 to space 11"
    assert faces[1]["does"] == "forward 1 to space 14"
    assert faces[2]["does"].startswith("forward 2 across the finish")  # race 1 ends on 15
    assert "push another racing chair back 2" in faces[2]["does"]
    assert faces[3]["does"] == "forward 2 across the finish"  # the chair stops on the finish, as a roll says


def test_a_goof_behind_start_falls_into_the_pond():
    observation = _observation({"red": -1, "blue": 0}, ["goof", "+1", "+2", "+3"])
    with translation.override("en"):
        (goof, *_rest) = roll_faces(CLASSIC, observation, "red")
    assert "shell pond" in goof["does"]


def test_what_winning_costs_follows_the_high_bid():
    observation = {
        "players": [{"colour": "red", "gold": 20}, {"colour": "blue", "gold": 50}],
        "auction": {
            "high_bid": 7,
            "cards_held": {"red": 1, "blue": 2},
            "my_cards": [_card("+2")],
            "face_up": [_card("+1")],
        },
    }
    terms = bid_terms(observation, "red")
    assert terms == {"lowest": 8, "gold": 20, "left_after_lowest": 12, "hidden": 2, "lot_size": 4}


@pytest.mark.django_db
def test_a_roll_is_answered_with_the_die_and_where_it_took_the_chair():
    game = play_until(started_game(3), lambda state: engine.decision_kind(state) == "roll", random.Random(2))
    state = load_state(game)
    mover = engine.to_move(state)
    token = tokens(game)[mover]
    client = Client()
    page = client.get(f"/s/{token}/").content.decode()
    assert page.count('<li><span class="card">') == 4  # the four faces, in the roll box
    response = client.post(f"/s/{token}/act", {"version": game.decision_version, "action": "roll"}, follow=True)
    said = response.content.decode()
    colour = state.colours[mover]
    event = next(
        e
        for record in game.actions.filter(actor="chance").order_by("-seq")[:1]
        for e in record.events
        if e["type"] == "roll" and e["colour"] == colour
    )
    assert f"Done: you rolled {event['face']}: " in said
    assert "carries you" in said
