"""The decision phrases of games.mail.titles for templates, translated when the
email is written (compose.py picks the language), not when it is queued."""

from django import template

from games.mail import titles

register = template.Library()


@register.filter
def decision_title(observation):
    return titles.decision_title(observation or {})


@register.filter
def decision_request(observation):
    return titles.decision_request(observation or {})
