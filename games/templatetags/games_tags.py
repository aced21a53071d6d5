from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext

from games import notation_words
from games.board.colours import hex_of
from games.narrate import card_name
from games.narrate import colour_name as _colour_name
from games.narrate import final_standings as _final_standings
from games.narrate import moment as _moment

register = template.Library()

# What the named cards do (in the classic ruleset), beside their name where
# a page shows a team: the plain movers say it with their number.
_CARD_EFFECTS = {"goof": "−2", "devil": "+2/−2"}


@register.filter
def colour_name(colour):
    return _colour_name(colour)


@register.simple_tag
def final_standings(observation, names):
    # Emails are written from the outbox's stored observation, in the site's
    # language, so the standings are told when the email is written.
    return _final_standings(observation, names)


@register.filter
def moment(value):
    return _moment(value)


@register.filter
def colour_hex(colour):
    return hex_of(colour)


@register.filter
def bearer(code):
    return card_name(code, effect=_CARD_EFFECTS.get(code or "", ""))


@register.filter
def lookup(mapping, key):
    try:
        return mapping.get(key) if hasattr(mapping, "get") else mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.simple_tag
def notation_examples():
    """One example of each decision a reply may hold, quoted, in the language
    the email is written in (the seat's: games.mail.compose)."""
    language = get_language()
    # Quotation marks differ by language ('bid 12', „biete 12“).
    quoted = pgettext("an example of the reply notation, in quotation marks", "'%(example)s'")
    return mark_safe(
        ", ".join(
            quoted % {"example": conditional_escape(notation_words.in_language(example, language))}
            for example in notation_words.EXAMPLES
        )
    )


@register.simple_tag
def chip(colour):
    """A seat's colour swatch with the colour's name in words inside it:
    read out by screen readers, never a swatch alone (issue 29, point 10)."""
    name = _colour_name(colour)
    return format_html(
        '<span class="chip" style="background: {}" title="{}"><span class="visually-hidden">{}</span></span>',
        hex_of(colour),
        name,
        name,
    )
