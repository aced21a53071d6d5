"""The confirmation page a turn email's decision links open: the decision
filled in, what it is about, and one button that posts it to seat_act with
the version the email was written at. Opening it changes nothing: mail
scanners open every link in a message (docs/architecture.md#links-in-email)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.selectors import seat as seat_reads
from games.selectors.confirm import decision_preview

from .decorators import with_seat
from .forms import DecisionForm

# The links an email offers; a removal names a card in every display, which
# is chosen on the seat page.
CONFIRMABLE = ("bid", "pass", "roll", "push")

STATUS = {None: 200, "forged": 400}


@require_safe
@with_seat
def seat_confirm(request, seat, token):
    text = None
    form = DecisionForm(request.GET, colours=seat_reads.game_colours(seat.game))
    if seat_reads.accepted(seat) and form.is_valid() and form.cleaned_data["action"] in CONFIRMABLE:
        try:
            text = form.notation()
        except ValidationError:
            text = None
    preview = {"problem": "forged"} if text is None else decision_preview(seat, text, form.cleaned_data["version"])
    context = {**preview, "token": token, "seat": seat, "time_zone": seat.time_zone}
    # Whatever went wrong, nothing was changed: a conflict with the game as it
    # is now, or a link that was never ours.
    return render(request, "seat/confirm.html", context, status=STATUS.get(preview["problem"], 409))
