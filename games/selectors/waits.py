"""Waiting for a game to move, for the API's long poll and event stream,
without a thread per waiting client.

A client waits on an asyncio future. One watcher per event loop (under
ASGI: one per web process) reads the versions of every game someone on
that loop waits for in a single statement every WAIT_POLL_SECONDS, and
wakes the waiters whose game passed the version they hold or ended. The
versions come from the database, as the pages' version checks read them,
so a decision committed on any web machine or worker wakes waiters on
every machine, within one poll; a thousand waits on one game cost one
small statement a poll, and a thousand games one statement too.

Reads run on a thread of the loop's pool (database_call), each thread
with its own connection kept as the request cycle keeps one, so a waiting
client blocks no thread and holds no connection of its own (Django's ASGI
handler still parks an idle thread per request for its sync signal
handlers: bench/waits.py counts them)."""

from __future__ import annotations

import asyncio
import contextvars
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games.models import Game

T = TypeVar("T")

# The game will not move again: waiters of such a game are answered at once.
_FINISHED = (Game.Status.OVER, Game.Status.ABORTED)


def _housekept(function: Callable[..., T]) -> Callable[..., T]:
    def call(*args: Any) -> T:
        # As Django's request cycle does around a request: a connection past
        # its age or broken is replaced, on whichever pool thread runs this.
        close_old_connections()
        try:
            return function(*args)
        finally:
            close_old_connections()

    return call


async def database_call(function: Callable[..., T], *args: Any, pooled: bool = True) -> T:
    """``function(*args)`` run where a synchronous read may block: on a
    thread of the loop's pool when ``pooled`` (under ASGI), or else on the
    request's own thread (under WSGI, which holds that thread anyway and
    whose tests share the test's database connection)."""
    if not pooled:
        return await sync_to_async(function)(*args)
    return await sync_to_async(_housekept(function), thread_sensitive=False)(*args)


def _versions(game_ids: list[int]) -> dict[int, tuple[int, str]]:
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "version", "status")
    return {pk: (version, status) for pk, version, status in rows}


class _Watcher:
    def __init__(self, pooled: bool) -> None:
        self.pooled = pooled
        self.waiting: dict[int, list[tuple[int, asyncio.Future[int | None]]]] = {}
        self.task: asyncio.Task[None] | None = None

    async def wait(self, game_id: int, seen: int, seconds: float) -> int | None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        entry = (seen, future)
        self.waiting.setdefault(game_id, []).append(entry)
        if self.task is None or self.task.done():
            # A context of its own: the task outlives the request that
            # started it, and must not carry that request's state.
            self.task = loop.create_task(self._run(), context=contextvars.Context())
        try:
            return await asyncio.wait_for(asyncio.shield(future), seconds)
        except TimeoutError:
            return None
        finally:
            entries = self.waiting.get(game_id, [])
            if entry in entries:
                entries.remove(entry)
            if not entries:
                self.waiting.pop(game_id, None)

    async def _run(self) -> None:
        while self.waiting:
            try:
                versions = await database_call(_versions, list(self.waiting), pooled=self.pooled)
            except Exception:
                # Tried again next poll (a database restarting, say): a waiter
                # is answered late at worst, when its time is up.
                versions = {}
            for game_id, entries in list(self.waiting.items()):
                version, status = versions.get(game_id, (None, None))
                for seen, future in entries:
                    if future.done() or version is None:
                        continue
                    if version > seen or status in _FINISHED:
                        future.set_result(version)
            await asyncio.sleep(settings.API_WAIT_POLL_SECONDS)


_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watcher] = weakref.WeakKeyDictionary()


async def version_after(game_id: int, seen: int, seconds: float, *, pooled: bool = True) -> int | None:
    """The game's version once it is past ``seen`` (or the game is over or
    aborted), or None if ``seconds`` pass first."""
    loop = asyncio.get_running_loop()
    watcher = _watchers.get(loop)
    if watcher is None:
        watcher = _watchers[loop] = _Watcher(pooled)
    return await watcher.wait(game_id, seen, seconds)
