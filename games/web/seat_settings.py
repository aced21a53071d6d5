"""The seat's two pages beside the seat page, one link away from it (issue
29): its settings (standing orders, emails, language, absence, asking a
moderator, apps and webhooks) and the game's whole history.

Both live at /s/<token>/settings and /s/<token>/history: no trailing slash,
so the relative addresses their forms and links use ("orders", "api/",
"webhooks/add") resolve under /s/<token>/ exactly as on the seat page, and
the POST endpoints stay where they were. Neither page is cached whole; their
forms get CSRF tokens the way the seat page's do (seat/seat.html, by form
id), so the fragments they share with it stay free of any request."""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.selectors import seat as seat_reads
from games.selectors.game_page import PAGE_SECONDS

from . import chat_hooks
from .decorators import with_seat
from .forms import AbsenceForm, EmailModeForm, HelpForm, LanguageForm, OrdersForm
from .seat_page import FORM_ID


def settings_forms(seat, page: dict) -> dict:
    """The settings page's forms, as its context (``seat_reads.seat_settings``)
    says it has them."""
    forms = {
        "emails_stopped": seat.emails_stopped,
        "email_form": EmailModeForm(initial={"email_mode": seat.email_mode}),
        "language_form": LanguageForm(initial={"language": seat.language}),
    }
    if page["orders_initial"] is not None:
        forms["orders_form"] = OrdersForm(initial=page["orders_initial"])
    if page["player_tools"]:
        forms.update(absence_form=AbsenceForm(), help_form=HelpForm())
    return forms


@require_safe
@with_seat
def seat_settings_page(request, seat, token):
    if seat_reads.is_inviting(seat.game):
        # Nothing to set before the game starts: the invitation is the page.
        return redirect("seat", token=token)
    context = seat_reads.seat_settings(seat)
    context["page_seconds"] = PAGE_SECONDS
    context.update(settings_forms(seat, context))
    context.update(chat_hooks.seat_section(seat))
    body = render_to_string("seat/settings.html", context)
    title = _("Settings") + " · Galopp Royal"
    return render(request, "seat/seat.html", {"title": title, "body": body, "form_ids": FORM_ID.findall(body)})


@require_safe
@with_seat
def seat_history_page(request, seat, token):
    if seat_reads.is_inviting(seat.game):
        return redirect("seat", token=token)
    context = seat_reads.whole_history(seat)
    return render(request, "seat/history.html", context)
