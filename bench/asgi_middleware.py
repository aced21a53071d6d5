"""What the middleware costs the API under ASGI: the deep game's API
decision, in process through Django's AsyncClient (the ASGI handler), with
the site's whole MIDDLEWARE, with the API process's
(versailles_site/api_settings.py) and with the project's own async
middleware alone, in turn (medians of --repeat each).

Under ASGI each hook of a middleware built on Django's MiddlewareMixin runs
through sync_to_async, a hop from the event loop to a thread and back; the
project's own middleware is async and makes none. Run it with DATABASE_URL
and REDIS_URL as bench/web.py (without them, SQLite in a temporary folder)."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(BASE_DIR), str(BENCH_DIR)]

from bench._common import django_on_a_throwaway_database  # noqa: E402

_tmp = django_on_a_throwaway_database("versailles-bench-asgi-", "web_site")

from asgiref.sync import sync_to_async  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import AsyncClient  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench._games import deep_game_on_a_test_database, restorer  # noqa: E402
from games import engine  # noqa: E402
from games.models import Seat  # noqa: E402
from games.services.api_tokens import api_token_create  # noqa: E402
from games.services.game_state import load_state  # noqa: E402
from versailles_site import api_settings  # noqa: E402


async def measure(game, repeat: int) -> dict[str, float]:
    state = load_state(game)
    seat = await sync_to_async(Seat.objects.get)(game=game, position=engine.to_move(state))
    secret = (await sync_to_async(api_token_create)(seat=seat, label="bench"))[1]
    body = json.dumps(
        {"decision": engine.format_action(engine.default_action(state)), "version": game.decision_version}
    )
    restore = sync_to_async(await sync_to_async(restorer)(game))
    own = [path for path in settings.MIDDLEWARE if path.startswith(api_settings.PROJECT_PREFIXES)]
    lists = {
        f"the site's {len(settings.MIDDLEWARE)}": settings.MIDDLEWARE,
        f"the API process's {len(api_settings.MIDDLEWARE)}": api_settings.MIDDLEWARE,
        f"the project's own {len(own)}": own,
    }
    clients = {name: AsyncClient() for name in lists}

    address, authorization = reverse("api_seat_decision"), {"Authorization": f"Bearer {secret}"}

    async def decide(client: AsyncClient) -> None:
        response = await client.post(address, body, content_type="application/json", headers=authorization)
        assert response.status_code == 200, response.content
        await restore()

    # A client's handler reads MIDDLEWARE at its first request.
    for name, client in clients.items():
        with override_settings(MIDDLEWARE=lists[name]):
            await decide(client)
    times: dict[str, list[float]] = {name: [] for name in clients}
    for _ in range(repeat):
        for name, client in clients.items():
            start = time.perf_counter()
            await decide(client)
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300, help="API decisions of each per figure (default 300)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    try:
        # The loop's pool threads keep connections of their own: ended
        # before the test database is dropped.
        with deep_game_on_a_test_database(args.seed) as game:
            figures = asyncio.run(measure(game, args.repeat))
    finally:
        _tmp.cleanup()
    print(f"\n{connection.vendor}, in process (AsyncClient), the deep game's API decision: medians of {args.repeat}\n")
    for name, median in figures.items():
        print(f"  middleware: {name:<26}{median:>8.2f} ms")


if __name__ == "__main__":
    main()
