"""The dev mailbox's pages, shown only while DEBUG is on."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.mail import devmail

from .decorators import debug_only


@require_safe
@debug_only
def dev_mailbox(request):
    to = request.GET.get("to", "")[:200]
    page = request.GET.get("page", "")
    found = devmail.mailbox_page(to=to, page=int(page) if page.isdigit() and len(page) < 9 else 1)
    return render(
        request,
        "dev/mailbox.html",
        {
            "messages_list": found["rows"],
            "to": to,
            "page": found["page"],
            "pages": found["pages"],
            "count": found["count"],
            "previous": found["page"] - 1 if found["page"] > 1 else None,
            "next": found["page"] + 1 if found["page"] < found["pages"] else None,
        },
    )


@require_safe
@debug_only
def dev_mailbox_message(request, name):
    message = devmail.mailbox_message(name)
    if message is None:
        raise Http404()
    return render(request, "dev/mailbox_message.html", {"message": message})


@require_safe
@debug_only
def dev_mailbox_html(request, name):
    message = devmail.mailbox_message(name)
    if message is None or not message["html"]:
        raise Http404()
    response = HttpResponse(message["html"])
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    return response
