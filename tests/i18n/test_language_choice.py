"""Choosing a language: the seat's setting decides its pages and every email
to it, written by whichever request or task; public pages follow the browser
and switch with a plain form."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from games.models import Seat
from games.services.decisions import decision_submit
from tests.factories import tokens
from tests.mail.helpers import mover, started_game, turn_mail

pytestmark = pytest.mark.django_db


def german(english: str) -> str:
    with translation.override("de"):
        return gettext(english)


def test_the_german_catalogue_is_compiled_and_differs_from_english():
    assert german("What happened") != "What happened"


def test_a_seat_switched_to_german_reads_its_page_in_german_whatever_the_browser_says():
    game = started_game()
    position = mover(game).position
    link = f"/s/{tokens(game)[position]}/"
    browser = Client(HTTP_ACCEPT_LANGUAGE="en-GB")
    response = browser.post(f"{link}language", {"language": "de"}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="de">' in page
    assert german("Standing orders") in page  # back on the settings page the form was on
    assert german("Your language is saved: your pages and emails are now in it.") in page
    assert response["Content-Language"] == "de"
    assert Seat.objects.get(game=game, position=position).language == "de"
    assert german("What happened") in browser.get(link).content.decode()


def test_an_unknown_language_changes_nothing_and_says_why():
    game = started_game()
    position = mover(game).position
    link = f"/s/{tokens(game)[position]}/"
    response = Client().post(f"{link}language", {"language": "klingon"}, follow=True)
    assert response.status_code == 200
    assert "Choose one of the languages offered. Nothing was changed." in response.content.decode()
    assert Seat.objects.get(game=game, position=position).language == "en"


# Emails leave on commit, as in production.
@pytest.mark.django_db(transaction=True)
def test_the_next_email_to_a_seat_is_in_the_language_it_chose_though_an_english_request_caused_it():
    game = started_game()
    first = mover(game)
    Seat.objects.filter(pk=first.pk).update(language="de")
    # Everyone else passes or bids from English pages until the German seat is asked again.
    decision_submit(seat=first, text="bid 1", seen_version=game.decision_version)
    for _ in range(10):
        seat = mover(game)
        if seat.position == first.position:
            break
        decision_submit(seat=seat, text="pass", seen_version=game.decision_version)
    message = turn_mail(Seat.objects.get(pk=first.pk))
    assert german("Since your last decision:") in message.body
    assert "Since your last decision:" not in message.body
    # The history in it is worded in German from the stored events, not stored English.
    passed = [s for s in Seat.objects.filter(game=game) if s.pk != first.pk]
    assert any(german("%(who)s passed.") % {"who": s.name} in message.body for s in passed)


def test_public_pages_follow_the_browser_and_the_switch_works_without_javascript():
    browser = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert german("How to play: the rules") in browser.get("/").content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = english.post("/i18n/setlang/", {"language": "de"}, HTTP_REFERER="http://testserver/rules/")
    assert response.status_code == 302 and response["Location"].endswith("/rules/")
    assert '<html lang="de">' in english.get("/rules/").content.decode()


def test_seat_pages_carry_no_language_switch_that_would_post_the_link():
    game = started_game()
    page = Client().get(f"/s/{tokens(game)[0]}/").content.decode()
    assert "/i18n/setlang/" not in page
    assert "/i18n/setlang/" in Client().get("/").content.decode()
