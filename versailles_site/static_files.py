"""WhiteNoise's static files, in a middleware that is async as well.

WhiteNoise's own middleware is sync only, and under ASGI Django runs a
sync-only middleware on a thread for every request that passes it: the
API's waits and event streams would each hold one. Here only requests for
a static file go to WhiteNoise (on a thread, briefly); every other request
passes on the event loop."""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from whitenoise.middleware import WhiteNoiseMiddleware


def _not_static(request: Any) -> None:
    return None


class StaticFiles:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        # WhiteNoise answers its files and hands anything else to the next
        # layer: here, a None that says "not mine".
        self.whitenoise = WhiteNoiseMiddleware(_not_static)
        self.prefix = "/" + settings.STATIC_URL.lstrip("/")
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: Any) -> Any:
        if self.is_async:
            return self._through_async(request)
        served = self.whitenoise(request) if request.path_info.startswith(self.prefix) else None
        return served if served is not None else self.get_response(request)

    async def _through_async(self, request: Any) -> Any:
        if request.path_info.startswith(self.prefix):
            served = await sync_to_async(self.whitenoise)(request)
            if served is not None:
                return served
        return await self.get_response(request)
