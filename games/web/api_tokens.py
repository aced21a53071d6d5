"""The seat's API tokens: listed, made (the secret shown once) and ended,
each page opened by the seat's link like the seat page itself."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.services.api_tokens import TOKENS_PER_SEAT, api_token_create, api_token_revoke, api_tokens_live
from games.services.errors import ServiceError

from .decorators import with_seat
from .forms import ApiTokenForm


def _page(request, seat, token, *, secret=None, form=None, status=200):
    context = {
        "seat": seat,
        "token": token,
        "tokens": api_tokens_live(seat),
        "tokens_max": TOKENS_PER_SEAT,
        "secret": secret,
        "form": form or ApiTokenForm(),
    }
    return render(request, "seat/api_tokens.html", context, status=status)


@require_safe
@with_seat
def seat_api_tokens(request, seat, token):
    return _page(request, seat, token)


@require_POST
@with_seat
def seat_api_token_new(request, seat, token):
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _page(request, seat, token, form=form, status=400)
    try:
        _made, secret = api_token_create(seat=seat, label=form.cleaned_data["label"])
    except ServiceError as error:
        form.add_error(None, error.message)
        return _page(request, seat, token, form=form, status=400)
    # Shown in this answer only (never put in a message or the session,
    # which would keep it): the page is no-store, like every seat page.
    return _page(request, seat, token, secret=secret)


@require_POST
@with_seat
def seat_api_token_end(request, seat, token, token_id):
    if api_token_revoke(seat=seat, token_id=token_id):
        messages.success(request, _("The token is ended: it opens nothing any more."))
    else:
        messages.error(
            request, _("There is no such token for this seat, or it was ended already. Nothing was changed.")
        )
    return redirect("seat_api_tokens", token=token)
