"""Headers every response carries, and robots.txt.

Pages hold seat secrets in their URLs: no script but our own files may run
(a script injected through a name could act for the seat), and no search
engine should keep a copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_safe

# Style attributes stay allowed: the board and the colour chips set their
# colours that way, and an attribute cannot run anything.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

ROBOTS_TXT = "User-agent: *\n" + "".join(
    f"Disallow: {prefix}\n" for prefix in ("/s/", "/u/", "/g/", "/mod/", "/admin/", "/dev/")
)


def _headed(response: HttpResponseBase) -> HttpResponseBase:
    # A view with a stricter policy of its own (the dev mailbox) keeps it.
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
    return response


class SecurityHeadersMiddleware:
    # Async as well: under ASGI a sync-only middleware would hold a thread
    # for every request, the API's waits included.
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._through_async(request)
        return _headed(self.get_response(request))

    async def _through_async(self, request: HttpRequest) -> HttpResponseBase:
        return _headed(await self.get_response(request))


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ROBOTS_TXT, content_type="text/plain")
