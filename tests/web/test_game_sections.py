"""The players' table, the races run and the history, written in Python
(games/templatetags/game_sections.py), say exactly what the templates they
replace said: both are rendered from the same pages' contexts and compared,
with names that need escaping, an absence, an autopilot and a computer seat."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from games.models import Absence, Seat
from games.selectors.public import spectator_page
from games.selectors.seat import public_sections, seat_page
from tests.factories import play_until, seat_at, started_game

pytestmark = pytest.mark.django_db

# The templates as they were, loop for loop: the reference.
OLD_TABLE_ROWS = """{% load i18n games_tags tz %}{% for player in observation.players %}
<tr>
  <td><span class="chip" style="background: {{ player.colour|colour_hex }}"></span> {{ names|lookup:player.colour }}{% if observation.to_move == player.colour %} ◀{% endif %}
  {% with s=by_colour|lookup:player.colour %}{% if s.email_undeliverable %}<br><strong class="note">{% translate "email undeliverable" %}</strong>{% endif %}{% if s.computer %}<br><span class="note">{{ s.get_computer_display }}</span>{% endif %}{% if s.autopilot %}<br><span class="note">{% translate "on autopilot" %}</span>{% endif %}{% endwith %}
  {% with away=absences|lookup:player.colour %}{% if away %}<br><span class="note">{% timezone time_zone %}{% blocktranslate with until=away.ends_at|date:_("D j M, H:i") %}away until {{ until }}{% endblocktranslate %}{% endtimezone %}</span>{% endif %}{% endwith %}
  {% if observation.race %}{% with chair=observation.race.chairs|lookup:player.colour %}<br><span class="note">{% if chair.status == "pond" %}{% translate "in the shell pond" %}{% elif chair.status == "finished" %}{% translate "finished" %}{% else %}{% blocktranslate with space=chair.position %}on space {{ space }}{% endblocktranslate %}{% endif %}</span>{% endwith %}{% endif %}</td>
  <td>{{ player.gold }}</td>
  <td>{% for card in player.display %}<span class="card">{{ card.code|bearer }}</span>{% empty %}<span class="note">{% translate "no team yet" %}</span>{% endfor %}</td>
</tr>
{% endfor %}"""
OLD_RESULTS = """{% load i18n games_tags %}{% for result in observation.results %}
<p><strong>{% blocktranslate with n=result.number %}Race {{ n }}{% endblocktranslate %}</strong>:
{% for colour in result.ranking %}{{ forloop.counter }}. {{ names|lookup:colour }}{% if colour in result.pond %} ({% translate "pond" %}){% endif %}{% with prize=result.prizes|lookup:forloop.counter0 %}{% if prize %} +{{ prize }}{% endif %}{% endwith %}{% if not forloop.last %}; {% endif %}{% endfor %}<br>
<span class="note">{% translate "Gold after the race:" %} {% for colour, gold in result.gold.items %}{{ names|lookup:colour }} {{ gold }}{% if not forloop.last %}, {% endif %}{% endfor %}</span></p>
{% endfor %}"""
OLD_HISTORY = """{% load i18n %}{% for entry in history %}{% for sentence in entry.sentences %}<li>{{ sentence }}</li>{% endfor %}{% empty %}<li>{% translate "Nothing yet." %}</li>{% endfor %}"""

NEW = {
    "table": "{% load game_sections %}{% player_rows observation names by_colour absences time_zone %}",
    "results": "{% load game_sections %}{% race_results observation names %}",
    "history": "{% load game_sections %}{% history_items history %}",
}
OLD = {"table": OLD_TABLE_ROWS, "results": OLD_RESULTS, "history": OLD_HISTORY}


def same_html(html: str) -> str:
    """Whitespace between and inside tags does not show; everything else does."""
    return re.sub(r"\s+", " ", re.sub(r">\s+", ">", re.sub(r"\s+<", "<", html))).strip()


def rendered(source: str, context: dict) -> str:
    return Template(source).render(Context(context))


@pytest.fixture
def game():
    game = started_game(4)
    Seat.objects.filter(game=game, position=1).update(display_name='<b>Ann</b> & "Bo"')
    Seat.objects.filter(game=game, position=2).update(autopilot=True, email_undeliverable=True)
    Seat.objects.filter(game=game, position=3).update(computer=Seat.Computer.SIMPLE)
    seat = seat_at(game, 1)
    now = timezone.now()
    Absence.objects.create(seat=seat, starts_at=now, ends_at=now + timedelta(days=2), days=2, mode=Absence.Mode.EXTEND)
    Seat.objects.filter(pk=seat.pk).update(away_until=now + timedelta(days=2))
    return game


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("part", ["table", "results", "history"])
def test_the_sections_in_python_say_what_the_templates_said(game, part, language):
    checked = 0
    for stop in (lambda s: True, lambda s: s.race is not None, lambda s: len(s.results) >= 2):
        play_until(game, stop, random.Random(5))
        with translation.override(language):
            for page in (seat_page(seat_at(game, 1)), spectator_page(game)):
                # As the page renders them: with what the shared sections are made from.
                context = {**page, **public_sections(game, page["names"], moderated=page["moderated"])}
                old, new = rendered(OLD[part], context), rendered(NEW[part], context)
                assert same_html(new) == same_html(old)
                checked += bool(old.strip())
    assert checked >= 2
    if part in ("table", "results"):
        assert "&lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Bo&quot;" in rendered(NEW[part], spectator_page(game))
