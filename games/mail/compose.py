"""Writing an email: its subject and parts from a template and a context, and
the message with the headers every game email carries. Plain values in,
nothing read from the database."""

from __future__ import annotations

from email.mime.image import MIMEImage

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template import Context
from django.template.loader import get_template, render_to_string
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
        # One line: a line break in a header ends it, or starts another.
        subject = " ".join(_plain(f"emails/{template}_subject.txt", context).split())[:SUBJECT_MAX]
        text = _plain(f"emails/{template}.txt", context)
        html = render_to_string(f"emails/{template}.html", context)
    return subject, text, html


def _plain(name: str, context: dict) -> str:
    """A plain-text template, rendered with autoescape off whatever the
    template says: "O'Brien & Co" is not HTML and must not read "O&#x27;Brien"."""
    return get_template(name).template.render(Context(context, autoescape=False))


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
    message_id: str | None = None,
    in_reply_to: str | None = None,
    game: str | None = None,
) -> EmailMultiAlternatives:
    headers = {}
    if message_id:
        headers["Message-ID"] = message_id
    if in_reply_to:
        # Mail clients thread an answer under the reply it answers.
        headers["In-Reply-To"] = in_reply_to
        headers["References"] = in_reply_to
    if game:
        # Lets the dev mailbox (and a support desk) tell which game a message is about.
        headers["X-Versailles-Game"] = game
    if unsubscribe:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject=subject, body=text, to=[to], reply_to=[reply_to] if reply_to else [], headers=headers
    )
    if html:
        message.attach_alternative(html, "text/html")
    if picture:
        image = MIMEImage(board_png(picture["observation"], picture["ruleset"], picture.get("names")), "png")
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
