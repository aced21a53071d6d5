"""A reply is never left behind: one whose task was lost (the broker was down
when it came) or whose worker died after claiming it is processed by the
beat's sweep, and processed once."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from games.models import ActionRecord, InboundMessage
from games.services import inbound, sweeps
from games.services.inbound import inbound_process, inbound_store

from .helpers import mails_to, mover, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)


class WorkerKilled(BaseException):
    """What the worker's death looks like from inside: nothing after it runs."""


def _actions(game):
    return list(ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL))


def _a_pass_reply(game):
    seat = mover(game)
    (address,) = turn_mail(seat).reply_to
    return seat, reply(to=address, sender=seat.email, first_line="pass")


def test_the_beat_sweeps_unread_replies():
    assert settings.CELERY_BEAT_SCHEDULE["unread-replies"]["task"] == "games.inbound_sweep"
    assert settings.CELERY_BEAT_SCHEDULE["unread-replies"]["schedule"] <= 60


def test_a_reply_stored_while_the_broker_was_down_is_applied_by_the_sweep():
    game = started_game()
    seat, raw = _a_pass_reply(game)
    mail.outbox.clear()
    stored = inbound_store(raw=raw, enqueue=False)  # its task never reached a worker
    assert sweeps.inbound_sweep() == 0  # a moment later its task may still come
    with time_machine.travel(timezone.now() + timedelta(seconds=30)):
        assert sweeps.inbound_sweep() == 1
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.APPLIED
    assert [a.action for a in _actions(game)] == ["pass"]
    assert len(mails_to(seat.email, "reply_ok")) == 1


def test_a_reply_whose_worker_died_after_claiming_it_is_applied_by_the_sweep_once(monkeypatch):
    game = started_game()
    seat, raw = _a_pass_reply(game)
    version = game.version
    stored = inbound_store(raw=raw, enqueue=False)

    def killed(**kwargs):
        raise WorkerKilled()

    with monkeypatch.context() as patch:
        patch.setattr(inbound, "decision_submit", killed)
        with pytest.raises(WorkerKilled):
            inbound_process(inbound_id=stored.pk)
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.PROCESSING
    game.refresh_from_db()
    assert game.version == version

    # A minute on, the worker may just be slow: the claim stands.
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        assert sweeps.inbound_sweep() == 0
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        assert sweeps.inbound_sweep() == 1
        # A second sweep, and the lost task finally arriving, change nothing.
        assert sweeps.inbound_sweep() == 0
        assert inbound_process(inbound_id=stored.pk) == "already processed"
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.APPLIED
    assert [a.action for a in _actions(game)] == ["pass"]
    assert len(mails_to(seat.email, "reply_ok")) == 1


def test_a_worker_that_stalled_past_its_claim_changes_nothing_when_it_wakes(monkeypatch):
    # Worker A claims and stalls; the sweep gives the reply to worker B, which
    # applies it; then A goes on with the decision it read.
    game = started_game()
    seat, raw = _a_pass_reply(game)
    stored = inbound_store(raw=raw, enqueue=False)
    real_command = inbound._command
    woke = []

    def stall_then_let_another_worker_in(parsed):
        if not woke:
            woke.append(True)
            with time_machine.travel(timezone.now() + timedelta(minutes=6)):
                assert sweeps.inbound_sweep() == 1  # worker B, inline
        return real_command(parsed)

    monkeypatch.setattr(inbound, "_command", stall_then_let_another_worker_in)
    mail.outbox.clear()
    assert inbound_process(inbound_id=stored.pk) == "already processed"
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.APPLIED
    assert [a.action for a in _actions(game)] == ["pass"]
    assert [m.tags for m in mails_to(seat.email) if "reply_ok" in m.tags or "reply_error" in m.tags] == [["reply_ok"]]


def test_a_reply_the_sweep_and_its_own_task_both_run_is_applied_once():
    game = started_game()
    seat, raw = _a_pass_reply(game)
    stored = inbound_store(raw=raw, enqueue=False)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(seconds=30)):
        assert sweeps.inbound_sweep() == 1
    assert inbound_process(inbound_id=stored.pk) == "already processed"
    assert len(_actions(game)) == 1
    assert len(mails_to(seat.email, "reply_ok")) == 1
