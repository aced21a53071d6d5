"""The provider webhooks' door: what /anymail/ refuses before django-anymail
reads a request.

Anymail parses the email in an inbound request before our receiver runs, and
Python's parser can spend minutes on a message built for it; anyone can mail
the reply domain. So the body is read here, at most
DATA_UPLOAD_MAX_MEMORY_SIZE bytes, and counted (games.mail.scan.door_refusal)
before anything parses it. Without a webhook secret the webhooks are closed:
open, anyone could report a seat's address as bouncing or post replies."""

from __future__ import annotations

import logging

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse

from games.mail.scan import door_refusal

log = logging.getLogger(__name__)

PREFIX = "/anymail/"


def _secret_set() -> bool:
    return bool((getattr(settings, "ANYMAIL", None) or {}).get("WEBHOOK_SECRET"))


class WebhookDoor:
    # Both, so that under ASGI no request of the API's waits holds a thread
    # here (a sync-only middleware would run every request on a thread).
    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._through_async(request)
        if not request.path.startswith(PREFIX):
            return self.get_response(request)
        refusal = self._refusal(request)
        return refusal if refusal is not None else self.get_response(request)

    async def _through_async(self, request):
        if request.path.startswith(PREFIX):
            refusal = await sync_to_async(self._refusal)(request)
            if refusal is not None:
                return refusal
        return await self.get_response(request)

    def _refusal(self, request) -> HttpResponse | None:
        if not _secret_set():
            return HttpResponse(
                "Webhooks are off: ANYMAIL_WEBHOOK_SECRET is not set.\n", status=403, content_type="text/plain"
            )
        if request.method != "POST":
            return None
        try:
            body = request.body
        except RequestDataTooBig:
            return self._refuse(request, 413, "request body too large")
        # Only emails are counted: a tracking request may batch a thousand
        # reports, each with an address, and nobody parses an email from it.
        inbound = "/inbound" in request.path[len(PREFIX):]
        refusal = door_refusal(body) if inbound else None
        if refusal is not None:
            return self._refuse(request, *refusal)
        return None

    @staticmethod
    def _refuse(request, status: int, reason: str) -> HttpResponse:
        log.warning("webhook %s refused: %s", request.path, reason)
        return HttpResponse(f"Refused: {reason}.\n", status=status, content_type="text/plain")
