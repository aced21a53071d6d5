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
    return render(request, "dev/mailbox.html", {"messages_list": devmail.mailbox_list()})


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
