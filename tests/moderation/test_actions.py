"""Each moderation action through the moderators' page: what it does to the
game, the sentence every player then reads in the history, and the emails."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import engine
from games.models import ActionRecord, Game, ModerationEntry, Notification
from games.services.game_state import load_state
from games.services.links import seat_token
from games.services.sweeps import deadlines_sweep, reminders_sweep
from games.services.timing import computer_level, reminder_lead
from tests.factories import play_until, seat_at, started_game, tokens
from tests.mail.helpers import addresses
from tests.web.pages import path_of, seat_links

from .helpers import act, mover, text_of

pytestmark = pytest.mark.django_db

T0 = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def pages_show(client, game, sentence: str) -> None:
    """Every seat page and the spectator page show ``sentence`` in the history."""
    for position, token in tokens(game).items():
        page = client.get(f"/s/{token}/")
        assert page.status_code == 200
        assert sentence in text_of(page), f"seat {position} lacks {sentence!r}"
    spectator = client.get(f"/g/{game.public_id}/")
    assert sentence in text_of(spectator), "the spectator page lacks it"


def entry_of(game) -> ModerationEntry:
    return ModerationEntry.objects.filter(game=game).latest("pk")


def test_extending_moves_the_deadline_by_the_hours_rearms_the_reminder_and_tells_everyone(
    mod_client, moderator
):
    with time_machine.travel(T0, tick=False) as traveller:
        mod_client.force_login(moderator)  # a session started at the travelled-to time
        game = started_game(4)
        seat = seat_at(game, mover(game))
        deadline = game.deadline
        # The reminder for this deadline has gone out already.
        traveller.move_to(game.reminder_at)
        assert reminders_sweep() == 1
        game.refresh_from_db()
        assert game.reminder_at is None

        response = act(mod_client, game, "extend", hours=24, reason="player ill", follow=True)
        assert "Done." in text_of(response)
        game.refresh_from_db()
        assert game.deadline == deadline + timedelta(hours=24)
        assert game.reminder_at == game.deadline - reminder_lead(24) == game.deadline - timedelta(hours=1)

        entry = entry_of(game)
        assert (entry.moderator, entry.action, entry.detail, entry.reason, entry.seat_position) == (
            moderator, "extend", "24", "player ill", seat.position
        )
        pages_show(mod_client, game, f"A moderator extended {seat.name}'s deadline by 24 h: player ill")

        # The old deadline passes with nothing applied; the new one applies.
        traveller.move_to(deadline + timedelta(minutes=1))
        assert deadlines_sweep() == 0
        traveller.move_to(game.deadline - timedelta(seconds=1))
        assert deadlines_sweep() == 0
        traveller.move_to(game.deadline)
        assert deadlines_sweep() == 1


def test_an_extended_deadline_whose_reminder_went_out_gets_a_second_reminder_email(
    mod_client, moderator, django_capture_on_commit_callbacks
):
    with time_machine.travel(T0, tick=False) as traveller:
        mod_client.force_login(moderator)
        game = started_game(4)
        seat = seat_at(game, mover(game))
        traveller.move_to(game.reminder_at)
        assert reminders_sweep() == 1
        act(mod_client, game, "extend", hours=24, reason="player ill")
        game.refresh_from_db()
        traveller.move_to(game.reminder_at)
        with django_capture_on_commit_callbacks(execute=True):
            sent = reminders_sweep()
        reminders = Notification.objects.filter(game=game, seat=seat, kind__startswith="reminder")
        assert (sent, reminders.count()) == (1, 2), (
            "the re-armed reminder is swallowed by the outbox's once-per-(game, seat, version, kind) rule: "
            "it has the same decision_version as the first reminder"
        )


def test_extending_refuses_a_silly_number_of_hours(mod_client, game):
    deadline = game.deadline
    for hours in ("0", "-3", "abc", "721", ""):
        response = act(mod_client, game, "extend", hours=hours, follow=True)
        assert "Done." not in text_of(response), hours
    game.refresh_from_db()
    assert game.deadline == deadline
    assert not ModerationEntry.objects.exists()


def test_pausing_stops_the_deadline_sweep_and_resuming_moves_deadlines_on_by_exactly_the_pause(mod_client, moderator):
    with time_machine.travel(T0, tick=False) as traveller:
        mod_client.force_login(moderator)
        game = started_game(4)
        deadline, reminder_at, version = game.deadline, game.reminder_at, game.version
        traveller.shift(timedelta(hours=2))
        act(mod_client, game, "pause", reason="server move")
        game.refresh_from_db()
        assert game.status == Game.Status.PAUSED
        assert game.paused_at == T0 + timedelta(hours=2)

        # Long past the deadline: the sweeps do nothing while paused.
        traveller.move_to(deadline + timedelta(days=2))
        assert deadlines_sweep() == 0
        assert reminders_sweep() == 0
        game.refresh_from_db()
        assert (game.version, game.status) == (version, Game.Status.PAUSED)
        # Nor can a player decide.
        token = tokens(game)[mover(game)]
        response = mod_client.post(f"/s/{token}/act", {"version": game.decision_version, "action": "pass"}, follow=True)
        assert "Nothing was changed" in text_of(response)
        assert "A moderator has paused this game" in text_of(response)

        paused_for = timezone_now() - game.paused_at
        act(mod_client, game, "resume", reason="server moved")
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING and game.paused_at is None
        assert game.deadline - deadline == paused_for
        assert game.reminder_at - reminder_at == paused_for
        assert entry_of(game).detail == str(int(paused_for.total_seconds()))

        pages_show(mod_client, game, "A moderator paused the game: server move")
        pages_show(mod_client, game, "A moderator resumed the game; deadlines moved on by the pause: server moved")

        traveller.move_to(game.deadline - timedelta(seconds=1))
        assert deadlines_sweep() == 0
        traveller.move_to(game.deadline)
        assert deadlines_sweep() == 1


def timezone_now():
    from django.utils import timezone

    return timezone.now()


def test_pause_and_resume_are_refused_in_the_wrong_state(mod_client, game):
    response = act(mod_client, game, "resume", follow=True)
    assert "Only a paused game can be resumed." in text_of(response)
    act(mod_client, game, "pause")
    response = act(mod_client, game, "pause", follow=True)
    assert "Only a running game can be paused." in text_of(response)
    assert list(ModerationEntry.objects.values_list("action", flat=True)) == ["pause"]


def test_applying_the_default_now_takes_exactly_the_default_for_the_mover_as_the_moderator(mod_client, game):
    state = load_state(game)
    position = engine.to_move(state)
    seat = seat_at(game, position)
    expected = engine.format_action(engine.default_action(state))
    version = game.version

    act(mod_client, game, "default", reason="player asked us")
    record = ActionRecord.objects.get(game=game, seq=version + 1)
    assert (record.seat, record.action, record.actor, record.source) == (position, expected, "moderator", "moderator")
    game.refresh_from_db()
    assert engine.to_move(load_state(game)) != position
    # A moderator's default is not a missed deadline.
    seat.refresh_from_db()
    assert seat.missed_deadlines == 0
    pages_show(mod_client, game, f"A moderator applied the default decision for {seat.name}: player asked us")


def test_replacing_a_player_mails_a_new_link_and_keeps_who_played_before(
    mod_client, game, django_capture_on_commit_callbacks
):
    seat = seat_at(game, 2)
    old_token = seat_token(seat)
    with django_capture_on_commit_callbacks(execute=True):
        act(mod_client, game, "replace", seat=2, email="Newcomer@Example.com", reason="player left")
    seat.refresh_from_db()
    assert seat.email == "newcomer@example.com"
    assert [addresses(m) for m in mail.outbox] == [["newcomer@example.com"]]
    links = seat_links(mail.outbox[0].body)
    assert links and path_of(links[0]) == f"/s/{seat_token(seat)}/"
    assert mod_client.get(path_of(links[0])).status_code == 200
    assert mod_client.get(f"/s/{old_token}/").status_code == 410
    holder = seat.holders.get()
    assert (holder.email, holder.display_name, holder.until_seq) == ("p2@example.com", "Player 2", game.version)
    pages_show(mod_client, game, "A moderator handed Player 2's seat to a new player: player left")


def test_replacing_refuses_a_bad_address_or_one_already_in_the_game(mod_client, game):
    for email in ("not an address", "", "p1@example.com"):
        response = act(mod_client, game, "replace", seat=2, email=email, follow=True)
        assert "Done." not in text_of(response)
    assert seat_at(game, 2).email == "p2@example.com"
    assert not ModerationEntry.objects.exists()


def test_autopilot_on_takes_the_seats_pending_decision_at_once_and_off_stops_it(mod_client, game):
    position = mover(game)
    seat = seat_at(game, position)
    version = game.version

    act(mod_client, game, "autopilot_on", seat=position, reason="player on holiday")
    seat.refresh_from_db()
    assert (seat.autopilot, seat.autopilot_reason) == (True, "moderator")
    record = ActionRecord.objects.filter(game=game, seq=version + 1).first()
    assert record is not None, "the autopilot did not take the pending decision"
    assert (record.seat, record.actor) == (position, "autopilot")
    pages_show(mod_client, game, f"A moderator put {seat.name} on autopilot: player on holiday")

    act(mod_client, game, "autopilot_off", seat=position, reason="player is back")
    seat.refresh_from_db()
    assert (seat.autopilot, seat.autopilot_reason) == (False, "")
    pages_show(mod_client, game, f"A moderator took {seat.name} off autopilot: player is back")


def test_the_autopilot_plays_a_seat_at_the_expert_level(mod_client, game):
    other = (mover(game) + 1) % 4
    assert computer_level(seat_at(game, other), timezone.now()) is None
    act(mod_client, game, "autopilot_on", seat=other, reason="away")
    assert computer_level(seat_at(game, other), timezone.now()) == "expert"


def test_autopilot_off_leaves_the_seats_next_decision_to_the_player(mod_client, game):
    other = (mover(game) + 1) % 4
    act(mod_client, game, "autopilot_on", seat=other, reason="away")
    act(mod_client, game, "autopilot_off", seat=other, reason="back")
    game = play_until(game, lambda s: engine.to_move(s) == other, random.Random(3))
    version = game.version
    # It waits for the player...
    game.refresh_from_db()
    assert engine.to_move(load_state(game)) == other and game.version == version
    # ...until the autopilot is switched on again, which decides at once.
    act(mod_client, game, "autopilot_on", seat=other, reason="away again")
    game.refresh_from_db()
    assert game.version > version
    assert ActionRecord.objects.get(game=game, seq=version + 1).seat == other


def test_resending_a_link_mails_the_seat_its_current_link(mod_client, game, django_capture_on_commit_callbacks):
    seat = seat_at(game, 3)
    with django_capture_on_commit_callbacks(execute=True):
        act(mod_client, game, "resend", seat=3, reason="lost the email")
    notification = Notification.objects.get(game=game, kind="modlink")
    assert (notification.seat, notification.to_email) == (seat, "p3@example.com")
    assert [addresses(m) for m in mail.outbox] == [["p3@example.com"]]
    links = seat_links(mail.outbox[0].body)
    assert [path_of(link) for link in links] == [f"/s/{seat_token(seat)}/"]
    # A second resend is a second email, not swallowed as a duplicate.
    with django_capture_on_commit_callbacks(execute=True):
        act(mod_client, game, "resend", seat=3, reason="lost it again")
    assert len(mail.outbox) == 2
    pages_show(mod_client, game, "A moderator sent Player 3 their link again: lost the email")


def test_a_seat_action_without_a_seat_is_refused(mod_client, game):
    for action in ("replace", "autopilot_on", "autopilot_off", "resend"):
        response = act(mod_client, game, action, email="x@example.com", follow=True)
        assert "Choose a seat." in text_of(response)
        response = act(mod_client, game, action, seat=9, email="x@example.com", follow=True)
        assert "Choose a seat." in text_of(response)
    assert not ModerationEntry.objects.exists()


def test_aborting_ends_the_game_and_mails_every_player_the_message(
    mod_client, game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = act(
            mod_client,
            game,
            "abort",
            confirm="yes",
            message="We are sorry: the game is cancelled.",
            reason="cheating",
            follow=True,
        )
    assert "Done." in text_of(response)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.deadline is None and game.reminder_at is None and game.ended_at is not None
    assert sorted(addresses(m)[0] for m in mail.outbox) == [f"p{i}@example.com" for i in range(4)]
    for message in mail.outbox:
        assert "We are sorry: the game is cancelled." in message.body
    pages_show(mod_client, game, "A moderator ended the game: cheating")
    page = mod_client.get(f"/s/{tokens(game)[0]}/")
    assert "A moderator has ended this game." in text_of(page)
    # Nothing runs on in an aborted game.
    assert deadlines_sweep() == 0
    response = act(mod_client, game, "abort", confirm="yes", message="again", reason="again", follow=True)
    assert "The game has already ended." in text_of(response)
    response = act(mod_client, game, "abort", confirm="yes", message="  ", reason="x", follow=True)
    assert ModerationEntry.objects.filter(action="abort").count() == 1


def test_aborting_needs_a_message_for_the_players(mod_client, game):
    response = act(mod_client, game, "abort", confirm="yes", message="   ", reason="cheating", follow=True)
    assert "Write the message the players will get." in text_of(response)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_every_action_is_logged_with_who_when_what_and_why_on_the_moderation_page(mod_client, moderator, game):
    act(mod_client, game, "extend", hours=6, reason="slow week")
    act(mod_client, game, "resend", seat=1, reason="lost link")
    entries = list(
        ModerationEntry.objects.order_by("pk").values_list("moderator", "action", "detail", "reason", "seat_position")
    )
    assert entries == [
        (moderator.pk, "extend", "6", "slow week", mover(game)),
        (moderator.pk, "resend", "", "lost link", 1),
    ]
    assert all(e.created_at for e in ModerationEntry.objects.all())
    page = text_of(mod_client.get(f"/mod/g/{game.public_id}/"))
    extended, resent = (seat_at(game, mover(game)).name, seat_at(game, 1).name)
    assert f"moderator: A moderator extended {extended}'s deadline by 6 h: slow week" in page
    assert f"moderator: A moderator sent {resent} their link again: lost link" in page
