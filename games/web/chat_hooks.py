"""Chat webhooks, from the seat page: added and removed by a POST, each
shown with its signing secret and latest deliveries on a page of its own,
to the player who added it. (Not games.web.webhooks, which is the door of
the email provider's inbound webhooks.)"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from games.selectors import webhooks as hook_reads
from games.services.errors import ServiceError
from games.services.webhooks import SEAT_LIMIT, TABLE_LIMIT, webhook_add, webhook_remove

from .decorators import with_seat
from .forms import WebhookForm
from .limits import WEBHOOK_ADDS_PER_CLIENT, WEBHOOK_ADDS_PER_SEAT, client_ip, limits_hit


def seat_section(seat) -> dict:
    """What the seat page's webhook section (seat/_webhooks.html) needs; the
    page is cached with the seats' rows, whose webhooks_version every change
    to a webhook bumps."""
    return {
        "webhooks": hook_reads.seat_webhooks(seat),
        "host": seat.is_host,
        "webhook_form": WebhookForm(),
        "webhook_limits": {"seat": SEAT_LIMIT, "table": TABLE_LIMIT},
    }


def _back(token: str):
    return redirect(reverse("seat_settings", args=[token]) + "#webhooks")


def _form_problem(form: WebhookForm) -> str:
    """The form's errors in one sentence per field, named by its label."""
    problems = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        said = " ".join(str(error) for error in errors)
        problems.append(f"{label}: {said}" if label else said)
    return " ".join(problems)


@require_POST
@with_seat
def webhook_add_view(request, seat, token):
    form = WebhookForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was saved. %(problem)s") % {"problem": _form_problem(form)})
        return _back(token)
    # Counted before the address is looked up, which is what the limit bounds.
    retry_after = limits_hit([(WEBHOOK_ADDS_PER_SEAT, str(seat.pk)), (WEBHOOK_ADDS_PER_CLIENT, client_ip(request))])
    if retry_after is not None:
        minutes = max(1, (retry_after + 59) // 60)
        messages.error(
            request,
            ngettext(
                "Nothing was saved: too many webhooks were tried in the last hour. Try again in %(n)d minute.",
                "Nothing was saved: too many webhooks were tried in the last hour. Try again in %(n)d minutes.",
                minutes,
            )
            % {"n": minutes},
        )
        return _back(token)
    try:
        hook = webhook_add(seat=seat, **form.cleaned_data)
    except ServiceError as error:
        messages.error(request, _("Nothing was saved: %(reason)s") % {"reason": error.message})
        return _back(token)
    messages.success(request, _("Your webhook is added. The next news of the game goes to it."))
    return redirect("seat_webhook", token=token, webhook_id=hook.pk)


@require_safe
@with_seat
def webhook_page_view(request, seat, token, webhook_id):
    page = hook_reads.webhook_page(seat, webhook_id)
    if page is None:
        messages.error(request, _("That webhook is not one of yours, or it has been removed."))
        return _back(token)
    return render(
        request,
        "seat/webhook.html",
        {**page, "token": token, "seat": seat, "seat_limit": SEAT_LIMIT, "table_limit": TABLE_LIMIT},
    )


@require_POST
@with_seat
def webhook_remove_view(request, seat, token, webhook_id):
    if webhook_remove(seat=seat, webhook_id=webhook_id):
        messages.success(request, _("The webhook is removed: nothing more is sent to it."))
    else:
        messages.error(request, _("That webhook is not one of yours, or it has been removed already."))
    return _back(token)
