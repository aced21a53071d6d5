"""Rotating SECRET_KEY (the old one in SECRET_KEY_FALLBACKS) ends no game:
links, reply addresses and unsubscribe links made before it keep working,
and so do the ones emailed after it."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from games.models import ActionRecord, InboundMessage, Seat
from games.services.inbound import inbound_store
from games.services.links import seat_token, unsubscribe_url
from games.services.setup import link_resend
from versailles_site.env import secret_key_fallbacks

from .helpers import mails_to, mover, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)

OLD_KEY = "the-key-before-the-rotation-" * 2
NEW_KEY = "the-key-after-the-rotation-" * 2


def _rotate(settings, *, keep_old: bool = True) -> None:
    settings.SECRET_KEY = NEW_KEY
    settings.SECRET_KEY_FALLBACKS = [OLD_KEY] if keep_old else []


def _before_rotation(settings):
    settings.SECRET_KEY = OLD_KEY
    settings.SECRET_KEY_FALLBACKS = []
    game = started_game()
    seat = mover(game)
    (reply_address,) = turn_mail(seat).reply_to
    return game, seat, seat_token(seat), reply_address, unsubscribe_url(seat)


def test_after_a_rotation_old_and_newly_emailed_links_replies_and_unsubscribe_all_work(settings):
    game, seat, old_link, old_reply, old_unsubscribe = _before_rotation(settings)
    _rotate(settings)
    client = Client()

    assert client.get(f"/s/{old_link}/").status_code == 200

    mail.outbox.clear()
    link_resend(email=seat.email)
    (email,) = mails_to(seat.email, "links")
    (new_link,) = re.findall(r"/s/([^/\s]+)/", email.body)
    assert client.get(f"/s/{new_link}/").status_code == 200

    stored = inbound_store(raw=reply(to=old_reply, sender=seat.email, first_line="pass"))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.APPLIED, stored.result
    assert ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL, seat=seat.position).exists()

    other = Seat.objects.select_related("game").exclude(pk=seat.pk).filter(game=game).first()
    new_unsubscribe = unsubscribe_url(other)
    assert client.post(old_unsubscribe.removeprefix(settings.SITE_URL)).status_code == 200
    assert client.post(new_unsubscribe.removeprefix(settings.SITE_URL)).status_code == 200
    assert Seat.objects.filter(pk__in=[seat.pk, other.pk], emails_stopped=True).count() == 2


def test_a_key_dropped_from_the_fallbacks_opens_nothing_any_more(settings):
    game, seat, old_link, old_reply, old_unsubscribe = _before_rotation(settings)
    _rotate(settings, keep_old=False)
    client = Client()
    assert client.get(f"/s/{old_link}/").status_code == 404
    assert client.post(old_unsubscribe.removeprefix(settings.SITE_URL)).status_code == 404
    stored = inbound_store(raw=reply(to=old_reply, sender=seat.email, first_line="pass"))
    stored.refresh_from_db()
    assert stored.status != InboundMessage.Status.APPLIED
    assert not Seat.objects.filter(emails_stopped=True).exists()


def test_secret_key_fallbacks_is_a_comma_separated_list_without_the_development_key():
    assert secret_key_fallbacks({"SECRET_KEY_FALLBACKS": "one, two"}, debug=False) == ["one", "two"]
    assert secret_key_fallbacks({}, debug=False) == []
    from django.core.exceptions import ImproperlyConfigured

    from versailles_site.env import DEV_SECRET_KEY

    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FALLBACKS"):
        secret_key_fallbacks({"SECRET_KEY_FALLBACKS": f"x,{DEV_SECRET_KEY}"}, debug=False)
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FALLBACKS"):
        secret_key_fallbacks({"SECRET_KEY_FALLBACKS": "x,,y"}, debug=False)
