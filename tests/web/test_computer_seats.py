"""Computer seats: chosen on the new-game form, seated at once, mailed
nothing, and able to play a game to its end by themselves."""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import ActionRecord, Game, Notification, Seat
from games.services.setup import game_create, seat_accept
from tests.factories import computer_turns
from tests.mail.helpers import addresses

pytestmark = pytest.mark.django_db


def new_game(client, **fields):
    return client.post("/new/", {
        "host_name": "Hostess", "host_email": "host@example.com", "decision_hours": "24", "ruleset": "classic",
        **fields,
    })


def test_the_new_game_form_seats_computer_players_who_are_sent_no_invitation(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = new_game(
            client, other_emails="friend@example.com", expert_computers="1", strong_computers="1", simple_computers="1"
        )
    assert response.status_code == 302
    seats = list(Seat.objects.filter(game=Game.objects.get()).order_by("position"))
    assert [s.computer for s in seats] == ["", "", "expert", "strong", "simple"]
    assert [s.name for s in seats[2:]] == ["Expert computer 1", "Strong computer 1", "Simple computer 1"]
    assert all(s.accepted_at for s in seats[2:]) and not any(s.accepted_at for s in seats[:2])
    assert sorted(addresses(m)[0] for m in mail.outbox) == ["friend@example.com", "host@example.com"]


def test_too_many_players_with_the_computers_counted_is_refused_and_creates_nothing(client):
    response = new_game(client, other_emails="a@example.com\nb@example.com", strong_computers="5")
    assert response.status_code == 400
    assert "you, the addresses you give and the computer players make 8" in response.content.decode()
    assert not Game.objects.exists()


def test_the_host_alone_with_two_computer_players_may_start_a_game(client):
    response = new_game(client, other_emails="", strong_computers="2")
    assert response.status_code == 302
    assert Seat.objects.filter(computer="strong").count() == 2


def test_a_level_that_does_not_exist_is_refused_by_the_service():
    with pytest.raises(Exception, match="levels offered"):
        game_create(host_name="H", host_email="h@example.com", other_emails=[], decision_hours=24,
                    ruleset_name="classic", computers=["strong", "genius"])


def test_a_game_of_computer_players_runs_to_its_end_on_their_turns_alone():
    game = game_create(host_name="H", host_email="h@example.com", other_emails=[], decision_hours=24,
                       ruleset_name="classic", computers=["strong", "strong", "simple"])
    host = Seat.objects.get(game=game, position=0)
    Seat.objects.filter(pk=host.pk).update(autopilot=True, autopilot_reason="moderator")
    host.refresh_from_db()
    seat_accept(seat=host, colour="red", display_name="H", time_zone="UTC")
    for _ in range(100):
        if not computer_turns(game):
            break
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    decided = ActionRecord.objects.filter(game=game).exclude(actor=ActionRecord.Actor.CHANCE)
    by_seat = {(r.seat, r.actor) for r in decided}
    assert by_seat == {(0, "autopilot"), (1, "computer"), (2, "computer"), (3, "computer")}
    assert not Notification.objects.filter(game=game, seat__position__gt=0).exists()
