"""The pages a seat link opens, and every decision and setting posted from
them. Each view reads through selectors and changes through one service."""

from __future__ import annotations

from collections.abc import Callable

from django import forms as django_forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.narrate import describe_notation
from games.selectors import seat as seat_reads
from games.selectors.decision import roll_told
from games.selectors.public import game_json
from games.services.absence import absence_declare, help_request_create, link_opened, seat_take_back
from games.services.decisions import arrange_submit, decision_submit
from games.services.errors import ServiceError, StaleDecision
from games.services.seat_settings import emails_resume, emails_stop, language_set, orders_set
from games.services.setup import seat_accept

from .decorators import private, with_seat
from .forms import AbsenceForm, AcceptForm, ArrangeForm, DecisionForm, EmailModeForm, HelpForm, LanguageForm, OrdersForm
from .seat_page import inviting_page


def form_posted(
    request,
    token: str,
    form: django_forms.Form,
    change: Callable[[dict], object],
    *,
    invalid: str,
    done: str,
    refused: str | None = None,
    back: str = "seat_settings",
):
    """One form posted from a seat's page: if it is filled in correctly,
    ``change(cleaned_data)`` (one service call); then back to the page it
    came from (``back``, a URL name: the settings page unless said), which
    says ``done``, or why nothing was changed: ``invalid`` for a form
    filled in wrongly, the service's reason (in ``refused``, with
    %(reason)s) when it refuses."""
    if not form.is_valid():
        messages.error(request, invalid)
        return redirect(back, token=token)
    try:
        change(form.cleaned_data)
    except ServiceError as error:
        messages.error(request, (refused or _("Nothing was changed: %(reason)s")) % {"reason": error.message})
    else:
        messages.success(request, done)
    return redirect(back, token=token)


@require_POST
@with_seat
def seat_accept_view(request, seat, token):
    game = seat.game
    form = AcceptForm(request.POST, free_colours=seat_reads.free_colours(game, list(game.seats.all())))
    if not seat_reads.is_inviting(game) or seat_reads.accepted(seat):
        return render(request, "seat/stale.html", {"token": token}, status=409)
    if not form.is_valid():
        return inviting_page(request, seat, token, accept_form=form, status=400)
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
        return inviting_page(request, seat, token, accept_form=form, status=400)
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
    # A roll is answered with the die and where it took the chair.
    told = roll_told(decided, seat.colour, form.cleaned_data["version"]) if text == "roll" else None
    decision = told or describe_notation(text, lambda: seat_reads.seat_names(decided))
    messages.success(request, _("Done: %(decision)s.") % {"decision": decision})
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_help(request, seat, token):
    return form_posted(
        request,
        token,
        HelpForm(request.POST),
        lambda data: help_request_create(seat=seat, message=data["message"]),
        invalid=_("Write a message of up to 2000 characters."),
        done=_("Your message is with the moderators."),
        refused="%(reason)s",
    )


@require_POST
@with_seat
def seat_absence(request, seat, token):
    return form_posted(
        request,
        token,
        AbsenceForm(request.POST),
        lambda data: absence_declare(seat=seat, **data),
        invalid=_("Give a start day and a number of days. Nothing was changed."),
        done=_("Your absence is noted; everyone in the game can see it."),
    )


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
    return form_posted(
        request,
        token,
        OrdersForm(request.POST),
        lambda data: orders_set(seat=seat, **data),
        invalid=_("Those orders were not filled in correctly. Nothing was changed."),
        done=_("Your standing orders are saved."),
    )


@require_POST
@with_seat
def seat_emails(request, seat, token):
    return form_posted(
        request,
        token,
        EmailModeForm(request.POST),
        lambda data: emails_resume(seat=seat, mode=data["email_mode"]),
        invalid=_("Choose one of the email options. Nothing was changed."),
        done=_("Your email choice is saved."),
    )


@require_POST
@with_seat
def seat_language(request, seat, token):
    form = LanguageForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the languages offered. Nothing was changed."))
        return redirect("seat_settings", token=token)
    language_set(seat=seat, language=form.cleaned_data["language"])
    # The confirmation is the first thing said in the new language.
    with translation.override(form.cleaned_data["language"]):
        messages.success(request, _("Your language is saved: your pages and emails are now in it."))
    return redirect("seat_settings", token=token)


@require_POST
@with_seat
def seat_arrange(request, seat, token):
    observation = seat_reads.seat_observation(seat)
    if observation is None:
        return redirect("seat", token=token)
    form = ArrangeForm(request.POST, codes=seat_reads.arrange_codes(observation, seat))
    return form_posted(
        request,
        token,
        form,
        lambda data: arrange_submit(seat=seat, codes=form.codes()),
        invalid=_("Choose a bearer for every slot. Nothing was changed."),
        done=_("Your team is arranged."),
        back="seat",
    )


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
