"""The game page's longest lists, written as HTML in Python: the history,
the players' table and the races run.

Django's template language spends most of a seat page's time in loops like
these (each {% for %} and {% if %} a node, each variable resolved by a
lookup chain); the same HTML joined from escaped strings costs a fraction.
Every text goes through the same translation calls the templates used."""

from __future__ import annotations

from django import template
from django.utils import dateformat
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.board.colours import hex_of
from games.selectors.seat import local_time

from .games_tags import bearer

register = template.Library()


def _cards(cards) -> str:
    return "".join(f'<span class="card">{escape(bearer(card["code"] if card else ""))}</span>' for card in cards)


@register.simple_tag
def history_items(history: list[dict]) -> str:
    """One item per sentence of every entry, oldest first."""
    if not history:
        nothing = gettext("Nothing yet.")
        return mark_safe(f"<li>{escape(nothing)}</li>")
    return mark_safe("".join(f"<li>{conditional_escape(sentence)}</li>" for entry in history for sentence in entry["sentences"]))


def _chair(chair: dict) -> str:
    if chair["status"] == "pond":
        return gettext("in the shell pond")
    if chair["status"] == "finished":
        return gettext("finished")
    return gettext("on space %(space)s") % {"space": chair["position"]}


def _seat_notes(seat) -> str:
    notes = ""
    if seat is None:
        return notes
    if seat.email_undeliverable:
        undeliverable = gettext("email undeliverable")
        notes += f'<br><strong class="note">{escape(undeliverable)}</strong>'
    if seat.computer:
        notes += f'<br><span class="note">{escape(seat.get_computer_display())}</span>'
    if seat.autopilot:
        autopilot = gettext("on autopilot")
        notes += f'<br><span class="note">{escape(autopilot)}</span>'
    return notes


@register.simple_tag
def player_rows(observation: dict, names: dict, by_colour: dict, absences: dict, time_zone: str) -> str:
    """A row per player: name (and whether to move), what everyone may know
    of the seat, the chair in the race, gold and team. A page without
    absences or a time zone (the moderators') passes none."""
    by_colour, absences = by_colour or {}, absences or {}
    rows = []
    chairs = (observation.get("race") or {}).get("chairs")
    for player in observation["players"]:
        colour = player["colour"]
        cell = f'<span class="chip" style="background: {escape(hex_of(colour))}"></span> {escape(names.get(colour) or "")}'
        if observation["to_move"] == colour:
            cell += " ◀"
        cell += _seat_notes(by_colour.get(colour))
        away = absences.get(colour)
        if away:
            until = dateformat.format(local_time(away.ends_at, time_zone or "UTC"), gettext("D j M, H:i"))
            away_until = gettext("away until %(until)s") % {"until": until}
            cell += f'<br><span class="note">{escape(away_until)}</span>'
        if chairs is not None:
            cell += f'<br><span class="note">{escape(_chair(chairs[colour]))}</span>'
        no_team = gettext("no team yet")
        team = _cards(player["display"]) or f'<span class="note">{escape(no_team)}</span>'
        rows.append(f"<tr>\n  <td>{cell}</td>\n  <td>{player['gold']}</td>\n  <td>{team}</td>\n</tr>")
    return mark_safe("\n".join(rows))


@register.simple_tag
def race_results(observation: dict, names: dict) -> str:
    """Each race run: the ranking with ponds and prizes, then everyone's gold."""
    out = []
    for result in observation["results"]:
        ranking = []
        for place, colour in enumerate(result["ranking"]):
            text = f"{place + 1}. {escape(names.get(colour) or '')}"
            if colour in result["pond"]:
                pond = gettext("pond")
                text += f" ({escape(pond)})"
            prize = result["prizes"][place] if place < len(result["prizes"]) else None
            if prize:
                text += f" +{prize}"
            ranking.append(text)
        gold = ", ".join(f"{escape(names.get(colour) or '')} {amount}" for colour, amount in result["gold"].items())
        title = gettext("Race %(n)s") % {"n": result["number"]}
        gold_after = gettext("Gold after the race:")
        out.append(
            f"<p><strong>{escape(title)}</strong>:\n{'; '.join(ranking)}<br>\n"
            f'<span class="note">{escape(gold_after)} {gold}</span></p>'
        )
    return mark_safe("\n".join(out))
