"""The pages a seat link opens, and every decision and setting posted from
them. Each view reads through selectors and changes through one service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.middleware.csrf import get_token
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import page_marks
from games.narrate import describe_notation
from games.selectors import seat as seat_reads
from games.selectors import page_cache
from games.selectors.public import game_json
from games.services.absence import absence_declare, help_request_create, link_opened, seat_take_back
from games.services.decisions import arrange_submit, decision_submit
from games.services.errors import ServiceError, StaleDecision
from games.services.seat_settings import emails_resume, emails_stop, language_set, orders_set
from games.services.setup import seat_accept

from . import chat_hooks
from .decorators import number_in_query, private, with_seat
from .kept_html import kept_html, public_sections
from .forms import (
    AbsenceForm,
    AcceptForm,
    ArrangeForm,
    DecisionForm,
    EmailModeForm,
    HelpForm,
    LanguageForm,
    OrdersForm,
)


def _since(request) -> int | None:
    """The game version an emailed link was written at, or None for a link
    without one or with anything but a plain number (one longer than any
    game version is not a number we wrote)."""
    return number_in_query(request, "since")


def _seat_page(request, seat, token, *, accept_form=None, status=200, lookup=None):
    """The page made afresh; kept when it has nothing but the rows in it
    (``lookup``: the cache lookup that missed, with the rows it read)."""
    since = _since(request)
    if status == 200 and accept_form is None and not seat_reads.is_inviting(seat.game) and not get_messages(request):
        lookup = lookup or page_cache.seat_page_cached(token, since)
        html = page_cache.page_store(lookup, lambda: _seat_page_render(request, seat, since, table=lookup.table))
    else:
        # Not kept, but read by the rows all the same: its sections may be.
        html = _seat_page_render(request, seat, since, accept_form=accept_form, table=page_cache.table_read(token))
    return HttpResponse(page_cache.placeholders_fill(html, token, get_token(request)), status=status)


def _seat_page_render(request, seat, since, *, accept_form=None, table=None) -> str:
    """The page with placeholders for the link and the CSRF token."""
    context = seat_reads.seat_page(seat, since=since, table=table)
    context.update(token=page_marks.SEAT_LINK, csrf_token=page_marks.CSRF_TOKEN)
    if context["inviting"]:
        if seat.accepted_at is None and accept_form is None:
            accept_form = AcceptForm(
                free_colours=context["free_colours"],
                # The browser's language, which the page is shown in until the seat has one.
                initial={"display_name": seat.display_name, "time_zone": "UTC", "language": request.LANGUAGE_CODE},
            )
        context["accept_form"] = accept_form
        return render_to_string("seat/seat_inviting.html", context, request)
    if context["can_arrange"]:
        context["arrange_html"] = _arrange_form(request, context["arrange_codes"])
    context["public_sections"] = public_sections(request, context)
    context["forms_html"] = _seat_forms(request, seat, context)
    context.update(chat_hooks.seat_section(request, seat))
    return render_to_string("seat/seat.html", context, request)


def _seat_forms(request, seat, page: dict) -> str:
    """Standing orders, emails, language, absence and help: the same HTML for
    every seat with the same settings, so made once and kept."""
    inputs = (
        page["orders_initial"], seat.email_mode, seat.emails_stopped, seat.language,
        page["player_tools"], page.get("absence_days_left"),
    )

    def context() -> dict:
        made = {
            "emails_stopped": seat.emails_stopped,
            "email_form": EmailModeForm(initial={"email_mode": seat.email_mode}),
            "language_form": LanguageForm(initial={"language": seat.language}),
        }
        if page["orders_initial"] is not None:
            made["orders_form"] = OrdersForm(initial=page["orders_initial"])
        if page["player_tools"]:
            made.update(absence_form=AbsenceForm(), help_form=HelpForm(), absence_days_left=page["absence_days_left"])
        return made

    return kept_html(request, "seat-forms", "seat/_forms.html", inputs, context)


def _arrange_form(request, codes: list[str]) -> str:
    """The form that arranges a team: the same HTML for every team of the
    same cards in the same order, so made once and kept."""
    return kept_html(
        request, "arrange-form", "seat/_arrange.html", (tuple(codes),), lambda: {"arrange_form": ArrangeForm(codes=codes)}
    )


@require_safe
@private
def seat_page(request, token):
    """The page a seat link opens: from the cache while nothing it shows has
    changed (one query and a cache read); otherwise made afresh, and kept.
    A page with a message to show is always made afresh."""
    lookup = None if get_messages(request) else page_cache.seat_page_cached(token, _since(request))
    if lookup is None or lookup.html is None:
        return _seat_page_made(request, token, lookup=lookup)
    response = HttpResponse(page_cache.placeholders_fill(lookup.html, token, get_token(request)))
    response["Content-Language"] = lookup.table.viewer["language"]
    return response


@with_seat
def _seat_page_made(request, seat, token, lookup):
    return _seat_page(request, seat, token, lookup=lookup)


@require_POST
@with_seat
def seat_accept_view(request, seat, token):
    game = seat.game
    form = AcceptForm(request.POST, free_colours=seat_reads.free_colours(game, list(game.seats.all())))
    if not seat_reads.is_inviting(game) or seat_reads.accepted(seat):
        return render(request, "seat/stale.html", {"token": token}, status=409)
    if not form.is_valid():
        return _seat_page(request, seat, token, accept_form=form, status=400)
    try:
        seat_accept(
            seat=seat,
            colour=form.cleaned_data["colour"],
            display_name=form.cleaned_data["display_name"],
            time_zone=form.cleaned_data["time_zone"],
            language=form.cleaned_data["language"] or request.LANGUAGE_CODE,
        )
    except ServiceError as error:
        form.add_error(None, error.message)
        return _seat_page(request, seat, token, accept_form=form, status=400)
    # Said on the next page, which is in the language just chosen.
    with translation.override(seat_reads.seat_language(seat)):
        messages.success(request, _("You have taken your seat."))
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_act(request, seat, token):
    game = seat.game
    form = DecisionForm(request.POST, colours=seat_reads.game_colours(game))
    if not form.is_valid():
        messages.error(request, _("That form was not filled in correctly. Nothing was changed."))
        return redirect("seat", token=token)
    try:
        text = form.notation()
        decided = decision_submit(seat=seat, text=text, seen_version=form.cleaned_data["version"])
    except StaleDecision as error:
        happened = seat_reads.decisions_since(
            game, form.cleaned_data["version"], seat_reads.seat_names(game), viewer=seat
        )
        return render(
            request,
            "seat/stale.html",
            {"token": token, "message": error.message, "happened": happened, "time_zone": seat.time_zone},
            status=409,
        )
    except ServiceError as error:
        messages.error(request, _("Nothing was changed: %(reason)s") % {"reason": error.message})
        return redirect("seat", token=token)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("seat", token=token)
    messages.success(
        request, _("Done: %(decision)s.") % {"decision": describe_notation(text, lambda: seat_reads.seat_names(decided))}
    )
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_help(request, seat, token):
    form = HelpForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write a message of up to 2000 characters."))
        return redirect("seat", token=token)
    try:
        help_request_create(seat=seat, message=form.cleaned_data["message"])
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your message is with the moderators."))
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_absence(request, seat, token):
    form = AbsenceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a start day and a number of days. Nothing was changed."))
        return redirect("seat", token=token)
    try:
        absence_declare(seat=seat, **form.cleaned_data)
    except ServiceError as error:
        messages.error(request, _("Nothing was changed: %(reason)s") % {"reason": error.message})
    else:
        messages.success(request, _("Your absence is noted; everyone in the game can see it."))
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_back_view(request, seat, token):
    seat_take_back(seat=seat)
    messages.success(request, _("Welcome back: you decide for your seat again."))
    return redirect("seat", token=token)


@csrf_exempt
@require_POST
@with_seat
def seat_seen(request, seat, token):
    """The page's script posts here once it is shown in a browser (mail
    scanners fetch links but rarely run scripts), for the moderators'
    timeline. A GET never records anything."""
    link_opened(seat=seat)
    return HttpResponse(status=204)


@require_POST
@with_seat
def seat_orders(request, seat, token):
    form = OrdersForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Those orders were not filled in correctly. Nothing was changed."))
        return redirect("seat", token=token)
    try:
        orders_set(seat=seat, **form.cleaned_data)
    except ServiceError as error:
        messages.error(request, _("Nothing was changed: %(reason)s") % {"reason": error.message})
    else:
        messages.success(request, _("Your standing orders are saved."))
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_emails(request, seat, token):
    form = EmailModeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the email options. Nothing was changed."))
        return redirect("seat", token=token)
    emails_resume(seat=seat, mode=form.cleaned_data["email_mode"])
    messages.success(request, _("Your email choice is saved."))
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_language(request, seat, token):
    form = LanguageForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the languages offered. Nothing was changed."))
        return redirect("seat", token=token)
    language_set(seat=seat, language=form.cleaned_data["language"])
    # The confirmation is the first thing said in the new language.
    with translation.override(form.cleaned_data["language"]):
        messages.success(request, _("Your language is saved: your pages and emails are now in it."))
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_arrange(request, seat, token):
    observation = seat_reads.seat_observation(seat)
    if observation is None:
        return redirect("seat", token=token)
    form = ArrangeForm(request.POST, codes=seat_reads.arrange_codes(observation, seat))
    if not form.is_valid():
        messages.error(request, _("Choose a bearer for every slot. Nothing was changed."))
        return redirect("seat", token=token)
    try:
        arrange_submit(seat=seat, codes=form.codes())
    except ServiceError as error:
        messages.error(request, _("Nothing was changed: %(reason)s") % {"reason": error.message})
    else:
        messages.success(request, _("Your team is arranged."))
    return redirect("seat", token=token)


@require_safe
@with_seat
def seat_json(request, seat, token):
    return JsonResponse(game_json(seat.game, seat))


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request, token):
    """RFC 8058 one-click: a POST (from the mail client, with no cookies)
    stops this seat's emails and answers 200 with no redirect; GET only shows
    a page with the button."""
    # Its own secret, never the seat link's: these pages link to no seat.
    seat = seat_reads.seat_for_unsubscribe(token)
    if seat is None:
        return private(lambda r: render(r, "seat/link_invalid.html", status=404))(request)
    if request.method == "POST":
        emails_stop(seat=seat)
        return private(lambda r: render(r, "seat/unsubscribed.html", {"seat": seat}))(request)
    return private(lambda r: render(r, "seat/unsubscribe.html", {"seat": seat}))(request)
