"""Replies of the corpus (tests/mail/reply_corpus.py) through the real
worker: stored as the webhook stores them, read and applied in the worker
process, the answer sent by it. The worker reads what the test process reads."""

from __future__ import annotations

import pytest

from games.models import ActionRecord, InboundMessage
from games.services.inbound import inbound_store
from games.services.links import reply_address
from tests.mail.helpers import mover, started_game
from tests.mail.reply_corpus import SHAPES, as_sent, filled
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

TURN = "Bid or pass in the first start auction.\n- Bid 0 gold\n- Pass (out of this auction)\n"
# An Outlook (Word HTML) reply, a German reply below the quote, and "Thanks!" alone.
FINAL = (InboundMessage.Status.APPLIED, InboundMessage.Status.REFUSED)
NAMES = ("outlook word html greeting", "thunderbird German below", "gmail only thanks")


def test_the_worker_applies_or_refuses_each_reply_as_the_corpus_says(celery_env, celery_worker):
    worker = celery_worker()
    for name in NAMES:
        shape = next(shape for shape in SHAPES if shape.name == name)
        game = started_game()
        seat = mover(game)
        address = reply_address(seat, game.decision_version)
        values = {
            "addr": address,
            "turn": TURN,
            "turn_q": "\n".join(f"> {line}" for line in TURN.splitlines()),
            "turn_html": "<p>" + TURN.replace("\n", "<br>") + "</p>",
        }
        stored = inbound_store(raw=as_sent(shape, filled(shape.body, values), address, seat.email))
        def finished(stored=stored):
            stored.refresh_from_db()
            return stored.status in FINAL

        wait_until(finished, what=f"the worker to read {name!r}")
        actions = list(
            ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL).values_list("action", flat=True)
        )
        if shape.expect is None:
            assert (stored.status, actions) == (InboundMessage.Status.REFUSED, []), stored.result
        else:
            assert (stored.status, actions) == (InboundMessage.Status.APPLIED, [shape.expect]), stored.result
    # Read in the worker process, not in this one. The worker logs a task's
    # result after the task has committed the status waited for above.
    wait_until(lambda: len(worker.results("games.inbound_process")) >= len(NAMES), what="the worker's log")
    assert len(worker.results("games.inbound_process")) == len(NAMES)
