"""Open games' pages: the lobby, joining by a confirmed address, "Play now",
and the host removing someone who joined. Pages anyone may open show names
only, never an address."""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.selectors import open_games as reads
from games.services.errors import ServiceError
from games.services.open_games import join_hold, join_request_make, joined_remove
from games.services.quick_play import quick_play

from .decorators import private, with_seat
from .form_fields import hours_label
from .limits import JOINS_PER_ADDRESS, JOINS_PER_CLIENT, client_ip, limits_hit, too_many
from .open_forms import JoinForm, LobbyFilterForm, QuickPlayForm


@require_safe
def lobby(request):
    filters = LobbyFilterForm(request.GET or None)
    language, hours = "", None
    if filters.is_valid():
        language, hours = filters.cleaned_data["language"], filters.cleaned_data["pace"]
    quick = QuickPlayForm(initial={"language": request.LANGUAGE_CODE})
    games = _paced(reads.lobby_rows(language=language, decision_hours=hours))
    return render(
        request,
        "open/lobby.html",
        {"games": games, "filters": filters, "quick": quick},
        status=400 if filters.is_bound and not filters.is_valid() else 200,
    )


def _paced(rows: list[dict]) -> list[dict]:
    """Each row's time per decision worded as the filter words it ("1 day")."""
    return [{**row, "pace": hours_label(row["decision_hours"])} for row in rows]


@require_safe
def lobby_json(request):
    """The lobby for programs: the same games and filters, each with its join page."""
    filters = LobbyFilterForm(request.GET or None)
    if filters.is_bound and not filters.is_valid():
        return JsonResponse({"error": "bad_request", "fields": sorted(filters.errors)}, status=400)
    language = filters.cleaned_data["language"] if filters.is_bound else ""
    hours = filters.cleaned_data["pace"] if filters.is_bound else None
    games = [
        {
            "join": request.build_absolute_uri(reverse("open_join", args=[row["join_token"]])),
            "language": row["language"],
            "decision_hours": row["decision_hours"],
            "seats": row["seats"],
            "taken": row["taken"],
            "free": row["free"],
            "host": row["host"],
            "wait_ends_at": row["open_until"].isoformat() if row["open_until"] else None,
            "when_wait_ends": row["when_open"],
        }
        for row in reads.lobby_rows(language=language, decision_hours=hours)
    ]
    return JsonResponse({"games": games})


def _join_limits(request, email: str) -> int | None:
    """Counted once the form is valid, as /new/ and /link/ count: a typo costs no try."""
    return limits_hit([(JOINS_PER_ADDRESS, email.strip().lower()), (JOINS_PER_CLIENT, client_ip(request))])


@require_http_methods(["GET", "HEAD", "POST"])
@private
def join(request, token):
    """An open game's join page: its link is the lobby's for a listed game,
    the host's to pass on for the others."""
    game = reads.game_by_join_token(token)
    if game is None or game.hidden:
        return render(request, "open/join_unknown.html", status=404)
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        retry_after = _join_limits(request, form.cleaned_data["email"])
        if retry_after:
            return too_many(request, retry_after)
        try:
            join_request_make(
                game=game, name=form.cleaned_data["name"], email=form.cleaned_data["email"],
                language=request.LANGUAGE_CODE,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("open_sent")
    context = {**reads.join_page(game), "form": form}
    return render(request, "open/join.html", context, status=400 if form.errors else 200)


@require_safe
def join_sent(request):
    return render(request, "open/sent.html")


@require_http_methods(["GET", "HEAD", "POST"])
@private
def confirm(request, token):
    """The confirmation link's page: a button that holds the seat. Opening
    it (a mail scanner does) holds nothing."""
    found = reads.join_request_by_token(token)
    if found is None:
        return render(request, "open/join_unknown.html", status=404)
    if request.method == "POST":
        try:
            seat = join_hold(request=found)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Your seat is held. Take it now: choose your colour and your time zone."))
            return redirect(reverse("seat", args=[reads.seat_token(seat)]))
    state = reads.join_request_state(found)
    status = {"open": 200, "held": 200, "left": 410, "expired": 410, "full": 409}[state]
    context = {"state": state, "game": found.game, "name": found.display_name}
    if state == "held" and found.seat is not None:
        context["seat_path"] = reverse("seat", args=[reads.seat_token(found.seat)])
    return render(request, "open/confirm.html", context, status=status)


@require_POST
def play_now(request):
    form = QuickPlayForm(request.POST)
    if not form.is_valid():
        filters = LobbyFilterForm()
        return render(
            request, "open/lobby.html", {"games": _paced(reads.lobby_rows()), "filters": filters, "quick": form},
            status=400,
        )
    data = form.cleaned_data
    retry_after = _join_limits(request, data["email"])
    if retry_after:
        return too_many(request, retry_after)
    try:
        done = quick_play(
            name=data["name"], email=data["email"], language=data["language"], decision_hours=data["decision_hours"]
        )
    except ServiceError as error:
        form.add_error(None, error.message)
        context = {"games": _paced(reads.lobby_rows()), "filters": LobbyFilterForm(), "quick": form}
        return render(request, "open/lobby.html", context, status=400)
    return redirect("open_sent" if done.joined is not None else "game_created")


@require_POST
@with_seat
def joined_remove_view(request, seat, token):
    """The host frees the seat of someone who joined, before the start."""
    try:
        position = int(request.POST.get("position", ""))
        name = joined_remove(host=seat, position=position)
    except ValueError:
        messages.error(request, _("Nobody who joined sits there."))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s no longer has a seat; it is open again.") % {"name": name})
    return redirect("seat", token=token)
