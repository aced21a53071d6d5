"""Every reply shape of tests/mail/reply_corpus.py through the real inbound
path (the message stored as the webhook stores it, then read and applied by
the task): each gives exactly the decision written down for it, or is refused
with an answer and changes nothing. Not one reply may be misread."""

from __future__ import annotations

import uuid
from email.message import EmailMessage

import pytest
from django.core import mail

from games import engine, notation_words
from games.mail.reading import read_reply
from games.models import ActionRecord, Game, InboundMessage, Seat
from games.services.game_state import load_state
from games.services.inbound import inbound_store
from tests.factories import play_until

from .helpers import mails_to, mover, started_game, turn_mail
from .reply_corpus import GMAIL_EN, SHAPES, Shape, as_sent, filled, gmail_html

pytestmark = pytest.mark.django_db(transaction=True)

GERMAN = {colour: words["de"][0] for colour, words in notation_words.COLOURS.items()}


def _asking(asked: str) -> Game:
    game = started_game()
    if asked == "auction":
        return game
    return play_until(game, lambda state: engine.decision_kind(state) == asked)


def _values(game: Game, seat: Seat) -> dict[str, str]:
    """The placeholders' values for this game: its real turn email and a
    push and a removal its seat may make."""
    message = turn_mail(seat)
    values = {
        "addr": message.reply_to[0],
        "turn": message.body,
        "turn_q": "\n".join(f"> {line}".rstrip() for line in message.body.splitlines()),
        "turn_html": message.alternatives[0][0],
    }
    legal = engine.legal_actions(load_state(game))
    push = next((a.colour for a in legal if isinstance(a, engine.Push) and a.colour), None)
    if push:
        values |= {"push": push, "push_de": GERMAN[push]}
    removal = next((a for a in reversed(legal) if isinstance(a, engine.Remove)), None)
    if removal:
        values["remove"] = " ".join(f"{colour}:{slot}" for colour, slot in removal.slots)
        values["remove_de"] = " ".join(f"{GERMAN[colour]}:{slot}" for colour, slot in removal.slots)
    return values


def _seat_for(shape: Shape) -> tuple[Game, Seat]:
    game = _asking(shape.asked)
    seat = mover(game)
    language = "de" if any(word in shape.name for word in ("German", "gmx", "web.de")) else "en"
    Seat.objects.filter(pk=seat.pk).update(language=language)
    return game, Seat.objects.select_related("game").get(pk=seat.pk)


@pytest.mark.parametrize("shape", SHAPES, ids=[shape.name for shape in SHAPES])
def test_each_reply_shape_gives_its_decision_or_is_refused(shape):
    game, seat = _seat_for(shape)
    values = _values(game, seat)
    version = game.version
    mail.outbox.clear()
    stored = inbound_store(raw=as_sent(shape, filled(shape.body, values), values["addr"], seat.email))
    stored.refresh_from_db()
    actions = list(ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL).values_list(
        "action", flat=True
    ))
    if shape.expect is None:
        assert stored.status == InboundMessage.Status.REFUSED, (stored.status, stored.result)
        assert actions == []
        game.refresh_from_db()
        assert game.version == version
        assert mails_to(seat.email, "reply_error")
    else:
        assert stored.status == InboundMessage.Status.APPLIED, stored.result
        assert actions == [filled(shape.expect, values)]
        assert mails_to(seat.email, "reply_ok")


def test_the_corpus_holds_a_hundred_shapes_of_every_kind():
    assert len(SHAPES) >= 100
    assert len({shape.name for shape in SHAPES}) == len(SHAPES)
    refused = [shape for shape in SHAPES if shape.expect is None]
    assert len(refused) >= 25 and len(SHAPES) - len(refused) >= 60
    assert sum(shape.html for shape in SHAPES) >= 20
    assert {shape.asked for shape in SHAPES} == {"auction", "roll", "push", "remove"}


def test_not_one_reply_of_the_corpus_is_misread():
    """A misread is a decision applied that the reply did not give: read,
    and allowed where it was sent, but not the one written down."""
    games = {asked: _asking(asked) for asked in ("auction", "roll", "push", "remove")}
    seats = {asked: mover(game) for asked, game in games.items()}
    values = {asked: _values(game, seats[asked]) for asked, game in games.items()}
    legal = {asked: set(engine.legal_actions(load_state(game))) for asked, game in games.items()}
    misread, understood, refused = [], 0, 0
    for shape in SHAPES:
        reading = read_reply(filled(shape.body, values[shape.asked]), html=shape.html)
        applied = None
        if reading.notation and engine.parse(reading.notation) in legal[shape.asked]:
            applied = reading.notation
        expect = filled(shape.expect, values[shape.asked]) if shape.expect else None
        if applied != expect and applied is not None:
            misread.append((shape.name, applied))
        elif applied == expect and expect is not None:
            understood += 1
        else:
            refused += 1
    print(f"\ncorpus: {len(SHAPES)} replies, {understood} understood, {refused} refused, {len(misread)} misread")
    assert misread == []
    assert understood == sum(shape.expect is not None for shape in SHAPES)


def test_a_reply_with_a_text_and_an_html_part_is_read_from_its_text():
    game, seat = _seat_for(SHAPES[0])
    values = _values(game, seat)
    message = EmailMessage()
    message["From"] = seat.email
    message["To"] = values["addr"]
    message["Subject"] = "Re: Galopp Royal: your turn"
    message["Message-ID"] = f"<{uuid.uuid4().hex}@client.example>"
    message.set_content(filled("Hi,\n\nI bid 7 please" + GMAIL_EN, values))
    message.add_alternative(filled(gmail_html("Hi,<br><br>I bid 7 please"), values), subtype="html")
    stored = inbound_store(raw=message.as_string())
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.APPLIED, stored.result
    assert list(ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL).values_list(
        "action", flat=True
    )) == ["bid 7"]
