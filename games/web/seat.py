"""HTTP: GET and HEAD only read; every change is a POST through a service."""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe, require_http_methods, require_POST

from games import devmail, engine, selectors
from games.forms import (
    AcceptForm,
    ArrangeForm,
    DecisionForm,
    EmailModeForm,
    LinkResendForm,
    NewGameForm,
    AbsenceForm,
    HelpForm,
    OrdersForm,
)
from games.services.absence import (
    absence_days_left,
    absence_declare,
    help_request_create,
    link_opened,
    seat_take_back,
)
from games.models import Absence, Game, SeatHolder
from games.services.errors import ServiceError, StaleDecision
from games.services.links import seat_by_token, token_hash
from games.services.play import arrange_submit, decision_submit
from games.services.setup import (
    emails_resume,
    emails_stop,
    game_create,
    link_resend,
    orders_set,
    seat_accept,
)
from games.verification import game_verify


def private(view):
    """Pages opened by a secret link: never cached, never leak the link as a
    referrer to another site. same-origin rather than no-referrer, because with
    no-referrer Chromium posts our own forms with "Origin: null", which the
    CSRF check refuses."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "same-origin"
        return response

    return wrapped


def with_seat(view):
    """Resolve the link's seat, or answer with a clear page for a bad link."""

    @wraps(view)
    def wrapped(request, token, *args, **kwargs):
        seat = seat_by_token(token)
        if seat is None:
            if token and len(token) <= 100 and SeatHolder.objects.filter(token_hash=token_hash(token)).exists():
                return render(request, "games/handed_over.html", status=410)
            return render(request, "games/link_invalid.html", status=404)
        return view(request, seat, token, *args, **kwargs)

    return private(wrapped)


# A sedan-chair gold dot; browsers ask for /favicon.ico whatever the page says,
# and a 404 there is an error in every console.
FAVICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    '<circle cx="8" cy="8" r="7" fill="#7a5c1e"/></svg>'
)


@require_safe
def favicon(request):
    response = HttpResponse(FAVICON_SVG, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def home(request):
    return render(request, "games/home.html")


@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request):
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game_create(
                host_name=data["host_name"],
                host_email=data["host_email"],
                other_emails=data["other_emails"],
                decision_hours=data["decision_hours"],
                ruleset_name=data["ruleset"],
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game_created")
    return render(request, "games/new.html", {"form": form}, status=400 if form.errors else 200)


@require_safe
def game_created(request):
    return render(request, "games/created.html")


def _seat_page(request, seat, token, *, decision_form=None, accept_form=None, status=200):
    game = seat.game
    context = {"seat": seat, "game": game, "token": token}
    seats = list(game.seats.all())
    context["seats"] = seats
    if game.status == Game.Status.INVITING:
        if seat.accepted_at is None and accept_form is None:
            taken = {s.colour for s in seats if s.colour}
            free = [c for c in engine.Ruleset.from_json(game.ruleset).colours if c not in taken]
            accept_form = AcceptForm(
                free_colours=free, initial={"display_name": seat.display_name, "time_zone": "UTC"}
            )
        context["accept_form"] = accept_form
        return render(request, "games/seat_inviting.html", context, status=status)
    context.update(_game_context(game, seat, seats))
    if context["can_arrange"]:
        me = context["observation"]["players"][seat.position]
        context["arrange_form"] = ArrangeForm(codes=[card["code"] for card in me["display"]])
    context["decision_error"] = decision_form.non_field_errors() if decision_form else None
    if game.status == Game.Status.RUNNING:
        orders = seat.standing_orders or {}
        context["orders_form"] = OrdersForm(
            initial={
                "auto_roll": orders.get("auto_roll", False),
                "bid_limit": orders.get("bid_limit"),
                "bid_every": "bid_limit" in orders and "bid_auction" not in orders,
                "devil": orders.get("devil", ""),
                "removal": orders.get("removal", ""),
            }
        )
        context["in_auction"] = context["observation"]["auction"] is not None
    context["email_form"] = EmailModeForm(initial={"email_mode": seat.email_mode})
    if game.status in (Game.Status.RUNNING, Game.Status.PAUSED):
        context["absence_form"] = AbsenceForm()
        context["absence_days_left"] = absence_days_left(seat)
        context["help_form"] = HelpForm()
    return render(request, "games/seat.html", context, status=status)


def _absences_now(seats) -> dict:
    """Colour -> the absence under way or coming, shown to everyone."""
    from django.utils import timezone

    now = timezone.now()
    shown = {}
    for absence in Absence.objects.filter(seat__in=seats, ends_at__gt=now).order_by("starts_at"):
        colour = next(s.colour for s in seats if s.pk == absence.seat_id)
        shown.setdefault(colour, absence)
    return shown


def _game_context(game: Game, seat, seats) -> dict:
    observation = selectors.observation_for(game, seat)
    ruleset = engine.Ruleset.from_json(game.ruleset)
    by_colour = {s.colour: s for s in seats}
    my_turn = seat is not None and observation["to_move"] == seat.colour
    return {
        "observation": observation,
        "board_svg": selectors.board_svg(observation, ruleset),
        "names": {s.colour: s.name for s in seats},
        "by_colour": by_colour,
        "history": selectors.history(game, names={s.colour: s.name for s in seats}),
        "my_turn": my_turn,
        "deadline": selectors.local_time(game.deadline, seat.time_zone if seat else "UTC"),
        "time_zone": seat.time_zone if seat else "UTC",
        "can_arrange": bool(seat and observation["players"][seat.position]["can_arrange"]),
        "racing_others": [
            colour
            for colour, chair in (observation["race"] or {"chairs": {}})["chairs"].items()
            if chair["status"] == "racing" and (seat is None or colour != seat.colour)
        ],
        "ruleset": ruleset,
        "slots": range(1, ruleset.display_size + 1),
        "absences": _absences_now(seats),
    }


@require_safe
@with_seat
def seat_page(request, seat, token):
    return _seat_page(request, seat, token)


@require_POST
@with_seat
def seat_accept_view(request, seat, token):
    game = seat.game
    taken = {s.colour for s in game.seats.all() if s.colour}
    free = [c for c in engine.Ruleset.from_json(game.ruleset).colours if c not in taken]
    form = AcceptForm(request.POST, free_colours=free)
    if game.status != Game.Status.INVITING or seat.accepted_at is not None:
        return render(request, "games/stale.html", {"token": token}, status=409)
    if not form.is_valid():
        return _seat_page(request, seat, token, accept_form=form, status=400)
    try:
        seat_accept(
            seat=seat,
            colour=form.cleaned_data["colour"],
            display_name=form.cleaned_data["display_name"],
            time_zone=form.cleaned_data["time_zone"],
        )
    except ServiceError as error:
        form.add_error(None, error.message)
        return _seat_page(request, seat, token, accept_form=form, status=400)
    messages.success(request, _("You have taken your seat."))
    return redirect("seat", token=token)


@require_POST
@with_seat
def seat_act(request, seat, token):
    game = seat.game
    # The game's colours, straight from the stored state (no extra query).
    colours = tuple(game.state["colours"]) if game.state else ()
    form = DecisionForm(request.POST, colours=colours)
    if not form.is_valid():
        messages.error(request, _("That form was not filled in correctly. Nothing was changed."))
        return redirect("seat", token=token)
    try:
        text = form.notation()
        decision_submit(seat=seat, text=text, seen_version=form.cleaned_data["version"])
    except StaleDecision as error:
        names = {s.colour: s.name for s in game.seats.all()}
        happened = selectors.decisions_since(game, form.cleaned_data["version"], names)
        return render(
            request, "games/stale.html", {"token": token, "message": error.message, "happened": happened}, status=409
        )
    except ServiceError as error:
        messages.error(request, _("Nothing was changed: %(reason)s") % {"reason": error.message})
        return redirect("seat", token=token)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("seat", token=token)
    messages.success(request, _("Done: %(decision)s.") % {"decision": text})
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
def seat_arrange(request, seat, token):
    game = seat.game
    observation = selectors.observation_for(game, seat)
    if observation is None:
        return redirect("seat", token=token)
    codes = [card["code"] for card in observation["players"][seat.position]["display"] if card]
    form = ArrangeForm(request.POST, codes=codes)
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


def _game_json(game: Game, seat) -> dict:
    seats = list(game.seats.all())
    return {
        "game": {
            "id": game.public_id,
            "status": game.status,
            "version": game.version,
            "decision_version": game.decision_version,
            "deadline": game.deadline.isoformat() if game.deadline else None,
            "seed_commitment": game.seed_commitment,
            "seed": game.seed if game.status == Game.Status.OVER else None,
        },
        "seats": [
            {"position": s.position, "colour": s.colour, "name": s.name if s.accepted_at else None}
            for s in seats
        ],
        "viewer": None if seat is None else seat.colour,
        "observation": selectors.observation_for(game, seat),
    }


@require_safe
@with_seat
def seat_json(request, seat, token):
    return JsonResponse(_game_json(seat.game, seat))


@require_safe
def spectator_json(request, public_id):
    game = get_object_or_404(Game, public_id=public_id)
    return JsonResponse(_game_json(game, None))


@require_safe
def spectator(request, public_id):
    game = get_object_or_404(Game, public_id=public_id)
    seats = list(game.seats.all())
    context = {"game": game, "seats": seats}
    if game.state is not None:
        context.update(_game_context(game, None, seats))
    return render(request, "games/spectator.html", context)


@require_safe
def verify(request, public_id):
    game = get_object_or_404(Game, public_id=public_id)
    report = game_verify(game=game) if game.status == Game.Status.OVER else None
    return render(request, "games/verify.html", {"game": game, "report": report})


@require_http_methods(["GET", "HEAD", "POST"])
def link_resend_view(request):
    form = LinkResendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        link_resend(email=form.cleaned_data["email"])
        # The same page whether or not the address plays anywhere.
        return redirect("link_sent")
    return render(request, "games/link_resend.html", {"form": form}, status=400 if form.errors else 200)


@require_safe
def link_sent(request):
    return render(request, "games/link_sent.html")


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request, token):
    """RFC 8058 one-click: a POST (from the mail client, with no cookies)
    stops this seat's emails and answers 200 with no redirect; GET only shows
    a page with the button."""
    seat = seat_by_token(token)
    if seat is None:
        return private(lambda r: render(r, "games/link_invalid.html", status=404))(request)
    if request.method == "POST":
        emails_stop(seat=seat)
        return private(lambda r: render(r, "games/unsubscribed.html", {"seat": seat, "token": token}))(request)
    return private(lambda r: render(r, "games/unsubscribe.html", {"seat": seat, "token": token}))(request)


def _debug_only(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not settings.DEBUG:
            raise Http404()
        return view(request, *args, **kwargs)

    return wrapped


@require_safe
@_debug_only
def dev_mailbox(request):
    return render(request, "games/dev_mailbox.html", {"messages_list": devmail.mailbox_list()})


@require_safe
@_debug_only
def dev_mailbox_message(request, name):
    message = devmail.mailbox_message(name)
    if message is None:
        raise Http404()
    return render(request, "games/dev_mailbox_message.html", {"message": message})


@require_safe
@_debug_only
def dev_mailbox_html(request, name):
    message = devmail.mailbox_message(name)
    if message is None or not message["html"]:
        raise Http404()
    response = HttpResponse(message["html"])
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    return response
