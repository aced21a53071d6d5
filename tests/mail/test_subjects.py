"""Subjects name the game and the decision, and every email says in its first
line what is asked of the reader and by when, in the reader's own time zone
(issue 11)."""

from __future__ import annotations

import html
import re

import pytest
import time_machine
from django.contrib.auth.models import Group, User
from django.core import mail

from games import engine
from games.mail.titles import ordinal
from games.models import Seat
from games.selectors.seat import local_time
from games.services.decisions import orders_apply_now
from games.services.game_state import load_state
from games.services.inbound import inbound_store
from games.services.moderation import MODERATORS_GROUP, game_abort, link_resend_for, seat_replace
from games.services.sweeps import digests_send, reminders_sweep
from tests.factories import play_until, seat_at

from .helpers import addresses, later, mails_to, mover, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)

TOKYO = ("Asia/Tokyo",) * 6


def _prefix(game) -> str:
    return f"Galopp Royal #{game.public_id} — "


def _first_line(message) -> str:
    return message.body.splitlines()[0]


def _first_paragraph(message) -> str:
    (part, _), = message.alternatives
    return html.unescape(re.search(r"<p>(.*?)</p>", part, re.S).group(1))


def _shown(moment, zone: str) -> str:
    """A deadline as the emails write it, in ``zone``."""
    local = local_time(moment, zone)
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} ({zone})"


def _bidding(kind: str, number: int, races_run: int = 0):
    def reached(state) -> bool:
        auction = state.auction
        return (
            engine.decision_kind(state) == "bid"
            and auction.kind == kind
            and auction.number == number
            and len(state.results) == races_run
        )
    return reached


def _deciding(decision: str, races_run: int | None = None):
    def reached(state) -> bool:
        return engine.decision_kind(state) == decision and (races_run is None or len(state.results) == races_run)
    return reached


# In the order a game reaches them; each with the subject's words and the
# first line's instruction.
WALK = [
    (_bidding("start_auction", 1), "your bid in the first start auction", "Bid or pass in the first start auction"),
    (_bidding("start_auction", 2), "your bid in the second start auction", "Bid or pass in the second start auction"),
    (_deciding("roll", 0), "your roll in race 1", "Roll the die in race 1"),
    (_deciding("remove", 1), "your removals after race 1",
     "Choose one bearer to remove from every display after race 1"),
    (_bidding("substitute_auction", 1, 1), "your bid in the first substitute auction after race 1",
     "Bid or pass in the first substitute auction after race 1"),
    (_bidding("substitute_auction", 2, 1), "your bid in the second substitute auction after race 1",
     "Bid or pass in the second substitute auction after race 1"),
    (_deciding("roll", 1), "your roll in race 2", "Roll the die in race 2"),
]


def test_each_decision_of_a_game_is_named_in_its_subject_and_asked_for_by_its_deadline_in_the_first_line():
    game = started_game(players=3)
    for reached, title, request in WALK:
        game = play_until(game, reached)
        assert reached(load_state(game)), f"the game ended before {title!r}"
        seat = mover(game)
        message = turn_mail(seat)
        assert message.subject == _prefix(game) + title
        asked = f"{request} of game #{game.public_id} by {_shown(game.deadline, seat.time_zone)}."
        assert _first_line(message) == asked
        assert _first_paragraph(message) == asked


def test_the_devils_push_is_named_with_its_race():
    game = play_until(started_game(players=3), _deciding("push"))
    state = load_state(game)
    assert engine.decision_kind(state) == "push", "the game ended without a Devil"
    message = turn_mail(mover(game))
    assert message.subject == _prefix(game) + f"the Devil's push in race {state.race.number}"
    assert _first_line(message).startswith(
        f"Choose which chair your Devil pushes back, or none, in race {state.race.number} of game #{game.public_id} by "
    )


def test_the_first_line_gives_the_deadline_in_the_seats_own_zone_not_in_utc():
    game = started_game(zones=TOKYO)
    seat = mover(game)
    assert seat.time_zone == "Asia/Tokyo"
    first = _first_line(turn_mail(seat))
    assert first.endswith(f" by {_shown(game.deadline, 'Asia/Tokyo')}.")
    in_utc = local_time(game.deadline, "UTC")
    assert f"{in_utc.day} {in_utc:%b %Y, %H:%M}" not in first


def test_a_reminder_names_the_decision_that_is_due_and_its_deadline_first():
    game = started_game()
    seat = mover(game)
    with time_machine.travel(game.reminder_at, tick=False):
        assert reminders_sweep() == 1
    (message,) = mails_to(seat.email, "reminder")
    assert message.subject == _prefix(game) + "reminder: your bid in the first start auction is due"
    asked = (
        f"Reminder: Bid or pass in the first start auction of game #{game.public_id} "
        f"by {_shown(game.deadline, seat.time_zone)}."
    )
    assert _first_line(message) == asked
    assert _first_paragraph(message) == asked


def test_race_results_name_the_game_and_the_race_and_ask_nothing():
    game = play_until(started_game(players=3), lambda state: len(state.results) == 1)
    (message,) = mails_to(seat_at(game, 0).email, "race")
    assert message.subject == _prefix(game) + "results of race 1"
    assert _first_line(message).startswith(f"Race 1 of game #{game.public_id} is run. Nothing is asked of you")
    assert _first_paragraph(message) == _first_line(message)


def test_the_last_email_names_the_game_and_says_it_is_over():
    game = started_game(players=3)
    # Orders that cover every decision: the game plays itself to the end.
    Seat.objects.filter(game=game).update(
        standing_orders={"auto_roll": True, "devil": "leader", "removal": "default", "bid_limit": 0}
    )
    game = orders_apply_now(game_id=game.pk)
    assert engine.is_over(load_state(game))
    (over,) = mails_to(seat_at(game, 0).email, "over")
    assert over.subject == _prefix(game) + "the game is over"
    assert _first_line(over).startswith(f"Game #{game.public_id} is over:")
    assert "nothing more is asked of you" in _first_line(over)


def test_the_emails_around_a_game_name_it_in_subject_and_first_line():
    moderator = User.objects.create(username="moderator", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    game = started_game(email_modes=[Seat.EmailMode.DIGEST, None, None, None])
    seat = mover(game)
    inbound_store(raw=reply(to=turn_mail(seat).reply_to[0], sender=seat.email, first_line="pass"))
    seat = mover(game)
    inbound_store(raw=reply(to=turn_mail(seat).reply_to[0], sender=seat.email, first_line="hello there"))
    digests_send()
    link_resend_for(moderator=moderator, seat=seat_at(game, 2), reason="lost it")
    seat_replace(moderator=moderator, seat=seat_at(game, 3), new_email="new@example.com", reason="left")
    game_abort(moderator=moderator, game=game, message="Sorry.", reason="test")

    expected = {
        "invite": ("p1@example.com", "Host invites you to Galopp Royal (#{id})", "Take your seat in game #{id}"),
        "start": ("p1@example.com", _prefix(game) + "the game has started", "Game #{id} has begun. Nothing is asked"),
        "reply_ok": (None, _prefix(game) + "your emailed decision was applied", "Applied: pass (game #{id})."),
        "reply_error": (
            None,
            _prefix(game) + "your emailed decision could not be applied",
            "Decide again in game #{id} by ",
        ),
        "digest": ("p0@example.com", _prefix(game) + "your daily digest", "What happened in game #{id} since"),
        "modlink": ("p2@example.com", _prefix(game) + "your seat link", "Here is your seat link for game #{id} again"),
        "handover": ("new@example.com", _prefix(game) + "you take over a seat", "Open your seat in game #{id}"),
        "abort": (
            "p1@example.com",
            _prefix(game) + "a moderator has ended the game",
            "A moderator has ended game #{id}:",
        ),
    }
    for kind, (to, subject, opening) in expected.items():
        found = [m for m in mail.outbox if kind in m.tags and (to is None or addresses(m) == [to])]
        assert found, f"no {kind} email"
        message = found[-1]
        assert message.subject == subject.format(id=game.public_id), kind
        assert _first_line(message).startswith(opening.format(id=game.public_id)), kind
        assert _first_paragraph(message).startswith(opening.format(id=game.public_id)), kind


def test_a_refused_reply_when_it_is_not_your_turn_says_nothing_is_asked():
    game = started_game()
    first = mover(game)
    address = turn_mail(first).reply_to[0]
    inbound_store(raw=reply(to=address, sender=first.email, first_line="pass"))
    # The same reply again (after the answers' pause): that decision is made,
    # and the next is someone else's.
    with later():
        inbound_store(raw=reply(to=address, sender=first.email, first_line="pass"))
    assert mover(game) != first
    (refusal,) = mails_to(first.email, "reply_error")
    assert _first_line(refusal) == (
        f"Your emailed reply changed nothing in game #{game.public_id}, and no decision there is yours now."
    )


def test_the_board_picture_is_drawn_356_wide_and_shrinks_on_a_narrow_screen():
    game = started_game()
    (part, _), = turn_mail(mover(game)).alternatives
    (image,) = re.findall(r"<img [^>]*>", part)
    assert 'src="cid:board"' in image
    assert 'width="356"' in image
    assert "max-width:100%" in image and "height:auto" in image


@pytest.mark.parametrize(
    "number, written",
    [(1, "first"), (2, "second"), (10, "tenth"), (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"),
     (22, "22nd"), (23, "23rd"), (111, "111th"), (101, "101st")],
)
def test_ordinals_are_words_up_to_the_tenth_and_numerals_beyond(number, written):
    assert ordinal(number) == written
