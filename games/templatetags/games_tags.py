from django import template
from django.utils.translation import gettext_lazy as _

from games.narrate import colour_name as _colour_name
from games.narrate import final_standings as _final_standings
from games.board.colours import hex_of

register = template.Library()

_BEARER_LABELS = {"goof": _("Goof −2"), "devil": _("Devil +2/−2")}


@register.filter
def colour_name(colour):
    return _colour_name(colour)


@register.simple_tag
def final_standings(observation, names):
    # Emails are written from the outbox's stored observation, in the site's
    # language, so the standings are told when the email is written.
    return _final_standings(observation, names)


@register.filter
def colour_hex(colour):
    return hex_of(colour)


@register.filter
def bearer(code):
    if code is None:
        return "—"
    return _BEARER_LABELS.get(code, code)


@register.filter
def lookup(mapping, key):
    try:
        return mapping.get(key) if hasattr(mapping, "get") else mapping[key]
    except (KeyError, IndexError, TypeError):
        return None

