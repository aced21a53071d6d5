"""Writing an email: its subject and parts from a template and a context, and
the message with the headers every game email carries. Plain values in,
nothing read from the database."""

from __future__ import annotations

from email.headerregistry import Address
from email.mime.image import MIMEImage
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template import Context
from django.template.backends.django import Template as DjangoTemplate
from django.template.loader import get_template, render_to_string
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.board.png import board_png, picture_of
from games.board.text import board_table, board_text
from games.narrate import describe

from .quick import quick_decisions

SUBJECT_MAX = 200


def email_render(
    template: str, context: dict[str, Any], language: str | None = None, picture: dict[str, Any] | None = None
) -> tuple[str, str, str]:
    """Subject, text and HTML of ``emails/<template>*``, in ``language`` (the
    seat's), whatever language the request or task that writes it speaks.
    The HTML is a whole document in that language (a screen reader reads a
    German email in German); ``picture`` is the board drawn beside it."""
    context = dict(context)
    language = language or settings.LANGUAGE_CODE
    # A deadline stored in the outbox's JSON comes back as text.
    if isinstance(context.get("deadline"), str):
        context["deadline"] = parse_datetime(context["deadline"])
    with translation.override(language):
        _tell(context)
        if "confirm_url" in context:
            context["quick"] = quick_decisions(context)
        if picture and picture.get("observation"):
            # Sized in the HTML, so a client that shows it before it loads
            # (or at its full width) keeps the text where it will be.
            width, height, _grounds, _figures = picture_of(
                picture["observation"], picture["ruleset"], picture.get("names")
            )
            context["picture"] = {"width": width, "height": height}
        # One line: a line break in a header ends it, or starts another.
        subject = " ".join(_plain(f"emails/{template}_subject.txt", context).split())[:SUBJECT_MAX]
        site = urlsplit(settings.SITE_URL).hostname or settings.SITE_URL
        footer = " ".join(_plain("emails/_footer.txt", {"site": site}).split())
        text = _plain(f"emails/{template}.txt", context).rstrip("\n") + "\n\n" + footer + "\n"
        body = render_to_string(f"emails/{template}.html", context)
        html = render_to_string(
            "emails/_document.html", {"language": language, "subject": subject, "body": body, "footer": footer}
        )
    return subject, text, html


def _tell(context: dict[str, Any]) -> None:
    """Word what the outbox row keeps as facts (engine events, the
    observation) in the language now active: a row queued by an English
    request for a German seat still reads German."""
    names = context.get("names") or {}
    for sentences, events in (("since", "since_events"), ("lines", "events")):
        if events in context:
            context[sentences] = [text for text in (describe(event, names) for event in context[events]) if text]
    if "board_text" not in context and context.get("observation") and "names" in context:
        context["board_text"] = board_text(context["observation"], names)
        context["board"] = board_table(context["observation"], names)


def _plain(name: str, context: dict[str, Any]) -> str:
    """A plain-text template, rendered with autoescape off whatever the
    template says: "O'Brien & Co" is not HTML and must not read "O&#x27;Brien"."""
    template = get_template(name)
    if not isinstance(template, DjangoTemplate):
        raise TypeError(f"{name} is not a Django template")
    return template.template.render(Context(context, autoescape=False))


def list_id(game: str) -> str:
    """The List-Id (RFC 2919) of one game's emails: filters and spam filters
    see a list that one can leave (List-Unsubscribe) and that has a name."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    name = _("Galopp Royal game %(id)s") % {"id": game}
    return f"{name} <{game}.games.{domain}>"


def recipient(address: str, name: str | None) -> str:
    """The address as "Name <address>": a bare address beside a picture is a
    sign of spam (SpamAssassin's TO_NO_BRKTS_HTML_IMG)."""
    name = " ".join((name or "").split())
    if not name:
        return address
    try:
        return str(Address(display_name=name, addr_spec=address))
    except (ValueError, IndexError):
        return address


def email_message(
    *,
    subject: str,
    text: str,
    html: str,
    to: str,
    to_name: str | None = None,
    unsubscribe: str | None,
    reply_to: str | None,
    picture: dict[str, Any] | None,
    tag: str,
    metadata: dict[str, Any],
    message_id: str | None = None,
    in_reply_to: str | None = None,
    game: str | None = None,
    language: str | None = None,
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
        if game:
            # A List-Unsubscribe without a List-Id reads as a half-made mailing
            # list to spam filters (SpamAssassin's LIST_PARTIAL_SHORT_MSG).
            with translation.override(language or settings.LANGUAGE_CODE):
                headers["List-Id"] = list_id(game)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[recipient(to, to_name)],
        reply_to=[reply_to] if reply_to else [],
        headers=headers,
    )
    if html:
        message.attach_alternative(html, "text/html")
    if picture:
        # The picture's labels ("Shell pond", the placings) in the email's language.
        with translation.override(language or settings.LANGUAGE_CODE):
            png = board_png(picture["observation"], picture["ruleset"], picture.get("names"), game=game or "")
        image = MIMEImage(png, "png")
        image.add_header("Content-ID", "<board>")
        image.add_header("Content-Disposition", "inline", filename="board.png")
        message.attach(image)
        message.mixed_subtype = "related"
    # Links carry seat secrets: a provider rewriting them would see them all.
    # (Anymail's attributes: it reads them off any EmailMessage, and has no types.)
    message.track_clicks = False  # type: ignore[attr-defined]
    message.track_opens = False  # type: ignore[attr-defined]
    message.tags = [tag]  # type: ignore[attr-defined]
    message.metadata = metadata  # type: ignore[attr-defined]
    return message
