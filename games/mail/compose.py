"""Writing an email: its subject and parts from a template and a context, and
the message with the headers every game email carries. Plain values in,
nothing read from the database."""

from __future__ import annotations

from email.mime.image import MIMEImage

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.dateparse import parse_datetime

from games.board.png import board_png

SUBJECT_MAX = 200


def email_render(template: str, context: dict) -> tuple[str, str, str]:
    """Subject, text and HTML of ``emails/<template>*``."""
    context = dict(context)
    # A deadline stored in the outbox's JSON comes back as text.
    if isinstance(context.get("deadline"), str):
        context["deadline"] = parse_datetime(context["deadline"])
    with translation.override(settings.LANGUAGE_CODE):
        subject = render_to_string(f"emails/{template}_subject.txt", context).strip()[:SUBJECT_MAX]
        text = render_to_string(f"emails/{template}.txt", context)
        html = render_to_string(f"emails/{template}.html", context)
    return subject, text, html


def email_message(
    *,
    subject: str,
    text: str,
    html: str,
    to: str,
    unsubscribe: str | None,
    reply_to: str | None,
    picture: dict | None,
    tag: str,
    metadata: dict,
) -> EmailMultiAlternatives:
    headers = {}
    if unsubscribe:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject=subject, body=text, to=[to], reply_to=[reply_to] if reply_to else [], headers=headers
    )
    if html:
        message.attach_alternative(html, "text/html")
    if picture:
        image = MIMEImage(board_png(picture["observation"], picture["ruleset"]), "png")
        image.add_header("Content-ID", "<board>")
        image.add_header("Content-Disposition", "inline", filename="board.png")
        message.attach(image)
        message.mixed_subtype = "related"
    # Links carry seat secrets: a provider rewriting them would see them all.
    message.track_clicks = False
    message.track_opens = False
    message.tags = [tag]
    message.metadata = metadata
    return message
