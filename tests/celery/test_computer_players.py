"""A person against computer players: the game is made on the new-game
form, the person plays on the seat's pages, and the computer players decide
in the real worker, until the final standings."""

from __future__ import annotations

import pytest

from games.models import ActionRecord, Game, Notification, Seat
from games.web.forms import decision_form_data
from tests.factories import tokens
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "host-vs-computers@example.com"


def persons_choice(observation: dict) -> str:
    """What the person clicks, read from their seat's JSON: a modest bid
    while it is cheap, the roll, a push of the first rival, one removal each."""
    decision = observation["decision"]
    if decision == "bid":
        auction = observation["auction"]
        lowest = 0 if auction["high_bid"] is None else auction["high_bid"] + 1
        return f"bid {lowest}" if lowest <= 6 else "pass"
    if decision == "push":
        racing = [c for c, chair in observation["race"]["chairs"].items()
                  if chair["status"] == "racing" and c != observation["viewer"]]
        return f"push {racing[0]}" if racing else "push none"
    if decision == "remove":
        return "remove " + " ".join(f"{player['colour']}:1" for player in observation["players"])
    return decision


def test_a_person_plays_a_whole_game_against_three_computer_players_through_the_pages_and_the_worker(
    celery_env, celery_worker, client
):
    celery_worker()
    response = client.post("/new/", {
        "host_name": "Hostess", "host_email": HOST, "other_emails": "",
        "expert_computers": "1", "strong_computers": "1", "simple_computers": "1",
        "decision_hours": "24", "ruleset": "classic",
    })
    assert response.status_code == 302
    game = Game.objects.get(seats__email=HOST)
    computers = list(Seat.objects.filter(game=game).exclude(computer=""))
    assert sorted(s.computer for s in computers) == ["expert", "simple", "strong"]
    assert all(s.accepted_at is not None for s in computers)
    link = f"/s/{tokens(game)[0]}"
    page = client.get(f"{link}/").content.decode()
    assert all(name in page for name in ("Expert computer 1", "Strong computer 1", "Simple computer 1")), page

    response = client.post(f"{link}/accept", {"colour": "red", "display_name": "Hostess", "time_zone": "Europe/Paris"})
    assert response.status_code == 302

    def seen() -> dict:
        return client.get(f"{link}/state.json").json()

    decisions = 0
    while True:
        view = wait_until(
            lambda: (v := seen()) and (v["game"]["status"] == "over" or v["observation"]["to_move"] == "red") and v,
            timeout=120, what="the computer players to finish their turns",
        )
        if view["game"]["status"] == "over":
            break
        form = decision_form_data(persons_choice(view["observation"]), view["game"]["decision_version"])
        response = client.post(f"{link}/act", form)
        assert response.status_code == 302, response.content.decode()[:500]
        decisions += 1
        assert decisions < 1000, "the game does not end"

    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    actors = {(r.seat, r.actor) for r in ActionRecord.objects.filter(game=game).exclude(actor="chance")}
    assert {seat for seat, actor in actors if actor == ActionRecord.Actor.COMPUTER} == {1, 2, 3}
    assert {seat for seat, actor in actors if actor == ActionRecord.Actor.PLAYER} == {0}
    # Only the person is mailed; the computer players read no email.
    assert not Notification.objects.filter(game=game).exclude(seat__position=0).exists()
    assert Notification.objects.filter(game=game, seat__position=0, kind="over").exists()
    final = client.get(f"{link}/").content.decode()
    assert all(s.display_name in final for s in computers)
