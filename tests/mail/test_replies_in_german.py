"""Replies by email in German as well as English (issue 12): a German first
line decides exactly what its English twin decides, and what a seat is told
back shows the notation in the seat's language."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from games import engine
from games.models import ActionRecord, Game, InboundMessage, Seat
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.inbound import inbound_store
from tests.factories import play_until

from .helpers import mails_to, mover, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)

GERMAN_COLOURS = {
    "red": "rot", "yellow": "gelb", "green": "grün", "blue": "blau", "white": "weiß", "black": "schwarz",
}
# What a seat is shown as examples, in the words; the quotation marks
# around each are the translation's to choose.
NOTATION = {
    "de": ["biete 12", "passe", "würfeln", "schieben blau", "niemand schieben", "entfernen rot:3 blau:1 grün:4"],
    "en": ["bid 12", "pass", "roll", "push blue", "push none", "remove red:3 blue:1 green:4"],
}
# English seats read what they always read.
ENGLISH_EXAMPLES = "'bid 12', 'pass', 'roll', 'push blue', 'push none', 'remove red:3 blue:1 green:4'"


def _speaks(seat: Seat, language: str) -> Seat:
    Seat.objects.filter(pk=seat.pk).update(language=language)
    return Seat.objects.select_related("game").get(pk=seat.pk)


def _send(seat: Seat, first_line: str, address: str | None = None) -> InboundMessage:
    address = address or turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    stored = inbound_store(raw=reply(to=address, sender=seat.email, first_line=first_line))
    stored.refresh_from_db()
    return stored


def _applied(game: Game, first_line: str) -> str:
    """The action a German seat's reply made, in the engine's notation."""
    seat = _speaks(mover(game), "de")
    stored = _send(seat, first_line)
    assert stored.status == InboundMessage.Status.APPLIED, stored.result
    (action,) = ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL)
    assert (action.seat, action.actor) == (seat.position, ActionRecord.Actor.PLAYER)
    assert mails_to(seat.email, "reply_ok")
    return action.action


def _at(kind: str) -> Game:
    return play_until(started_game(), lambda state: engine.decision_kind(state) == kind)


@pytest.mark.parametrize("german, english", [("biete 3", "bid 3"), ("BIETE 3", "bid 3"), ("passe", "pass")])
def test_a_german_bid_or_pass_is_applied_as_its_english_twin(german, english):
    assert _applied(started_game(), german) == english


@pytest.mark.parametrize("german", ["würfeln", "wuerfeln", "Würfle"])
def test_a_german_roll_is_applied_as_roll(german):
    assert _applied(_at("roll"), german) == "roll"


@pytest.mark.parametrize("order", ["verb first", "verb last"])
def test_a_german_push_of_a_colour_is_applied_as_push_of_that_colour(order):
    game = _at("push")
    state = load_state(game)
    colour = next(a.colour for a in engine.legal_actions(state) if isinstance(a, engine.Push) and a.colour)
    german = GERMAN_COLOURS[colour]
    first_line = f"schieben {german}" if order == "verb first" else f"{german} schieben"
    assert _applied(game, first_line) == f"push {colour}"


@pytest.mark.parametrize("german", ["niemand schieben", "schieben niemand"])
def test_a_german_push_of_nobody_is_applied_as_push_none(german):
    assert _applied(_at("push"), german) == "push none"


def test_a_german_removal_is_applied_as_the_same_removal():
    game = _at("remove")
    removal = engine.legal_actions(load_state(game))[-1]
    assert isinstance(removal, engine.Remove)
    german = " ".join(f"{GERMAN_COLOURS[colour]}:{slot}" for colour, slot in removal.slots)
    assert _applied(game, f"ENTFERNEN {german}") == engine.format_action(removal)


def _lists_the_notation_of(language: str, text: str) -> bool:
    """Every example in ``language`` and none in the other ("pass" is not
    read inside "passe")."""

    # Addresses are not words: a decision link's query says "action=pass" in every language.
    text = re.sub(r"https?://[^\s\"'<>]+", "", text)

    def shows(example: str) -> bool:
        return re.search(rf"(?<![\w:]){re.escape(example)}(?![\w:])", text) is not None

    other = "en" if language == "de" else "de"
    return all(map(shows, NOTATION[language])) and not any(map(shows, NOTATION[other]))


@pytest.mark.parametrize(
    "language, choices", [("de", "biete 0 … biete {gold} / passe"), ("en", "bid 0 … bid {gold} / pass")],
    ids=["german", "english"],
)
def test_a_garbage_reply_is_refused_with_every_legal_decision_in_the_seats_language(language, choices):
    game = started_game()
    seat = _speaks(mover(game), language)
    examples = choices.format(gold=load_state(game).gold[seat.position])
    version = game.version
    stored = _send(seat, "hallo zusammen")
    assert stored.status == InboundMessage.Status.REFUSED
    game.refresh_from_db()
    assert game.version == version
    (answer,) = mails_to(seat.email, "reply_error")
    line = next(line for line in answer.body.splitlines() if "hallo zusammen" in line and "/" in line)
    assert line.endswith(f": {examples}")
    assert examples in answer.alternatives[0][0]


def test_a_german_seat_is_told_why_its_reply_was_refused_in_german():
    game = started_game()
    german = _speaks(mover(game), "de")
    with translation.override("de"):
        reason = engine.NotationError("a bid must be a whole number, not %(word)r", word="viel").translated(gettext)
    assert not reason.startswith("a bid"), "no German catalog to tell the languages apart"
    stored = _send(german, "biete viel")
    assert stored.result == reason
    (answer,) = mails_to(german.email, "reply_error")
    assert reason in answer.body


def test_a_german_seat_is_told_in_german_that_its_reply_holds_no_decision():
    german = _speaks(mover(started_game()), "de")
    stored = _send(german, "hallo zusammen")
    assert stored.status == InboundMessage.Status.REFUSED
    assert stored.result == "in „hallo zusammen“ wurde keine Entscheidung gefunden"
    (answer,) = mails_to(german.email, "reply_error")
    assert stored.result in answer.body


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_late_reply_lists_the_notation_in_the_seats_language(language):
    game = started_game()
    seat = _speaks(mover(game), language)
    address = turn_mail(seat).reply_to[0]
    decision_submit(seat=seat, text="bid 2", seen_version=game.decision_version)
    stored = _send(seat, "biete 5", address=address)
    assert stored.status == InboundMessage.Status.REFUSED
    (answer,) = mails_to(seat.email, "reply_error")
    assert _lists_the_notation_of(language, answer.body)
    assert _lists_the_notation_of(language, answer.alternatives[0][0])


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_decision_email_lists_the_notation_in_the_seats_language(language):
    game = started_game()
    first = mover(game)
    for seat in Seat.objects.filter(game=game).exclude(pk=first.pk):
        _speaks(seat, language)
    decision_submit(seat=first, text="bid 2", seen_version=game.decision_version)
    message = turn_mail(mover(game))
    assert _lists_the_notation_of(language, message.body)
    assert _lists_the_notation_of(language, message.alternatives[0][0])


def test_an_english_seat_reads_the_notation_sentence_it_always_read():
    game = started_game()
    first = mover(game)
    decision_submit(seat=first, text="bid 2", seen_version=game.decision_version)
    message = turn_mail(mover(game))
    sentence = f"You can also reply to this email with your decision on the first line, e.g. {ENGLISH_EXAMPLES}."
    assert sentence in message.body
    assert sentence in message.alternatives[0][0]
