"""Moderators' pages: signed in with a password, never reachable by a seat link."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games import engine, moderation_selectors, selectors
from games.models import Game, HelpRequest, Seat
from games.services import moderation
from games.services.errors import ServiceError


def moderator_required(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url="mod_login")
        if not moderation.is_moderator(request.user):
            return render(request, "moderation/forbidden.html", status=403)
        response = view(request, *args, **kwargs)
        response["Cache-Control"] = "no-store"
        return response

    return wrapped


@require_safe
@moderator_required
def dashboard(request):
    query = request.GET.get("q", "")[:200]
    status = request.GET.get("status", "")
    if status not in Game.Status.values:
        status = ""
    rows = moderation_selectors.attention(query=query, status=status)
    return render(
        request,
        "moderation/dashboard.html",
        {"rows": rows, "query": query, "status": status, "statuses": Game.Status.choices},
    )


@require_safe
@moderator_required
def game_page(request, public_id):
    game = get_object_or_404(Game, public_id=public_id)
    context = {"game": game, **moderation_selectors.game_in_full(game, request.user)}
    if context["observation"]:
        context["board_svg"] = selectors.board_svg(context["observation"], engine.Ruleset.from_json(game.ruleset))
        context["names"] = {s.colour: s.name for s in context["seats"]}
        context["by_colour"] = {s.colour: s for s in context["seats"]}
    return render(request, "moderation/game.html", context)


@require_POST
@moderator_required
def game_act(request, public_id):
    game = get_object_or_404(Game, public_id=public_id)
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "")
    user = request.user
    seat = None
    if request.POST.get("seat", "").isdigit():
        seat = Seat.objects.select_related("game").filter(game=game, position=int(request.POST["seat"])).first()
    try:
        if action == "extend":
            hours = request.POST.get("hours", "")
            if not hours.isdigit():
                raise ServiceError(_("Give the extension in whole hours."))
            moderation.deadline_extend(moderator=user, game=game, hours=int(hours), reason=reason)
        elif action == "pause":
            moderation.game_pause(moderator=user, game=game, reason=reason)
        elif action == "resume":
            moderation.game_resume(moderator=user, game=game, reason=reason)
        elif action == "default":
            moderation.default_apply_now(moderator=user, game=game, reason=reason)
        elif action == "abort":
            moderation.game_abort(moderator=user, game=game, message=request.POST.get("message", ""), reason=reason)
        elif action in ("replace", "autopilot_on", "autopilot_off", "resend"):
            if seat is None:
                raise ServiceError(_("Choose a seat."))
            if action == "replace":
                moderation.seat_replace(moderator=user, seat=seat, new_email=request.POST.get("email", ""), reason=reason)
            elif action == "resend":
                moderation.link_resend_for(moderator=user, seat=seat, reason=reason)
            else:
                moderation.autopilot_set(moderator=user, seat=seat, on=action == "autopilot_on", reason=reason)
        elif action == "help_handled":
            help_id = request.POST.get("help", "")
            help_request = HelpRequest.objects.filter(game=game, pk=int(help_id) if help_id.isdigit() else 0).first()
            if help_request is None:
                raise ServiceError(_("No such request."))
            moderation.help_handled(moderator=user, help_request=help_request, reason=reason)
        else:
            raise ServiceError(_("Unknown action."))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Done."))
    return redirect("mod_game", public_id=public_id)
