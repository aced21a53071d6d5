"""A reply by email to a game that has ended (issue 29): the answer says the
game is over and shows the final standings, and asks for no decision."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import Group, User
from django.core import mail

from games.models import Game, Seat
from games.services.inbound import inbound_store
from games.services.moderation import MODERATORS_GROUP, game_abort
from tests.factories import play_until

from .helpers import mails_to, mover, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)

ASKS_FOR_A_DECISION = ("Reply with", "write for example", "It is your turn", "as it stands now", "Decide again")


def _late_answer(seat: Seat, address: str, first_line: str = "pass"):
    mail.outbox.clear()
    inbound_store(raw=reply(to=address, sender=seat.email, first_line=first_line))
    (answer,) = mails_to(seat.email)
    return answer


def _html(message) -> str:
    (html,) = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    return html


def _finished(players: int = 3) -> tuple[Game, Seat, str]:
    game = started_game(players)
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    game = play_until(game, lambda state: False, random.Random(3))
    assert game.status == Game.Status.OVER
    return game, seat, address


def test_a_reply_to_a_finished_game_says_it_is_over_with_the_final_standings():
    game, seat, address = _finished()
    answer = _late_answer(seat, address)
    assert "the game is over" in answer.subject
    assert f"Game #{game.public_id} is over" in answer.body
    assert "Final standings:" in answer.body
    seats = {s.colour: s.name for s in Seat.objects.filter(game=game)}
    lines = [line for line in answer.body.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert len(lines) == 3 and {line.split(" ", 1)[1].split(" — ")[0] for line in lines} == set(seats.values())
    assert "the winner" in lines[0]
    for words in ASKS_FOR_A_DECISION:
        assert words not in answer.body and words not in _html(answer), words
    assert "<ol>" in _html(answer) and "the winner" in _html(answer)


def test_a_german_seat_is_told_in_german():
    game, seat, address = _finished()
    Seat.objects.filter(pk=seat.pk).update(language="de")
    answer = _late_answer(seat, address, first_line="passe")
    assert answer.subject.endswith("die Partie ist zu Ende")
    assert f"Partie #{game.public_id} ist vorbei" in answer.body
    assert "Endstand:" in answer.body
    assert "Final standings" not in answer.body


def test_a_reply_to_an_aborted_game_says_a_moderator_ended_it_and_asks_nothing():
    game = started_game(3)
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    moderator = User.objects.create_user("mod", password="unused-password-1", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    game_abort(moderator=moderator, game=game, message="Sorry, we stop here.", reason="asked by everyone")
    answer = _late_answer(seat, address)
    assert "a moderator has ended the game" in answer.subject
    assert "A moderator ended this game before its last race." in answer.body
    assert "Final standings" not in answer.body
    for words in ASKS_FOR_A_DECISION:
        assert words not in answer.body, words
