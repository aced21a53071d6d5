"""Moderators' pages: signed in with a password, never reachable by a seat link."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.selectors import moderation as moderation_reads
from games.selectors.options import GAME_STATUSES
from games.services import moderation
from games.services.errors import ServiceError

from .decorators import game_or_404


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
    if status not in dict(GAME_STATUSES):
        status = ""
    rows = moderation_reads.attention(query=query, status=status)
    return render(
        request,
        "moderation/dashboard.html",
        {"rows": rows, "query": query, "status": status, "statuses": GAME_STATUSES},
    )


@require_safe
@moderator_required
def game_page(request, public_id):
    game = game_or_404(public_id)
    return render(request, "moderation/game.html", moderation_reads.game_page(game, request.user))


@require_POST
@moderator_required
def game_act(request, public_id):
    game = game_or_404(public_id)
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "")
    user = request.user
    seat = None
    if request.POST.get("seat", "").isdigit():
        seat = moderation_reads.seat_at(game, int(request.POST["seat"]))
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
            # Ending a game cannot be undone: the form's box must be ticked.
            if request.POST.get("confirm") != "yes":
                raise ServiceError(_("Tick “Yes, end this game for everyone” to abort it. Nothing was changed."))
            moderation.game_abort(moderator=user, game=game, message=request.POST.get("message", ""), reason=reason)
        elif action in ("replace", "autopilot_on", "autopilot_off", "resend"):
            if seat is None:
                raise ServiceError(_("Choose a seat."))
            if action == "replace":
                moderation.seat_replace(
                    moderator=user, seat=seat, new_email=request.POST.get("email", ""), reason=reason
                )
            elif action == "resend":
                moderation.link_resend_for(moderator=user, seat=seat, reason=reason)
            else:
                moderation.autopilot_set(moderator=user, seat=seat, on=action == "autopilot_on", reason=reason)
        elif action == "hide":
            moderation.game_hide(moderator=user, game=game, reason=reason)
        elif action == "help_handled":
            help_id = request.POST.get("help", "")
            help_request = moderation_reads.help_request(game, int(help_id) if help_id.isdigit() else 0)
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
