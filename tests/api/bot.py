"""A bot that plays seats of a Versailles game through the JSON API alone:
the standard library and HTTP, nothing of the server's code.

    python tests/api/bot.py <api base, e.g. http://127.0.0.1:8000/api/v1> <token> [<token> ...]

Each token plays its seat: the bot watches the game as a spectator, and when
one of its seats is to decide it reads that seat's view and sends one of the
legal decisions listed there, with the decision version the view gives. A
stale_decision (something else decided first) is no error: it reads again.
It honours 429 by waiting as long as Retry-After says. At the end it prints
one line of JSON: the decisions it made, the final standings, and whether
any Django module was ever loaded into it."""

from __future__ import annotations

import json
import random
import sys
import time
import urllib.error
import urllib.request

PATIENCE_SECONDS = 600


class Seat:
    def __init__(self, base: str, token: str):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        while True:
            request = urllib.request.Request(self.base + path, data=data, method=method)
            request.add_header("Authorization", f"Bearer {self.token}")
            if data is not None:
                request.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, json.load(response)
            except urllib.error.HTTPError as error:
                if error.code == 429:
                    time.sleep(int(error.headers.get("Retry-After", "1")))
                    continue
                return error.code, json.load(error)


def play(base: str, secrets: list[str], seed: int = 1) -> dict:
    rng = random.Random(seed)
    seats = [Seat(base, secret) for secret in secrets]
    by_colour = {}
    game_id = None
    for seat in seats:
        status, view = seat.call("GET", "/seat")
        if status != 200:
            raise SystemExit(f"the token was refused: {status} {view}")
        by_colour[view["seat"]["colour"]] = seat
        game_id = view["game"]["id"]
    made, stale, deadline = 0, 0, time.monotonic() + PATIENCE_SECONDS
    while time.monotonic() < deadline:
        _status, public = seats[0].call("GET", f"/games/{game_id}")
        if public["game"]["status"] in ("over", "aborted"):
            break
        decision = public["decision"]
        seat = by_colour.get(decision and decision["colour"])
        if seat is None:
            time.sleep(0.05)  # someone else's turn (or chance): wait for it
            continue
        _status, view = seat.call("GET", "/seat")
        if not view["decision"] or not view["decision"]["legal"]:
            continue
        choice = rng.choice(view["decision"]["legal"])
        status, answer = seat.call(
            "POST", "/seat/decision", {"decision": choice, "version": view["decision"]["version"]}
        )
        if status == 200:
            made += 1
        elif answer["error"]["code"] == "stale_decision":
            stale += 1
        else:
            raise SystemExit(f"{choice!r} was refused: {status} {answer}")
    return {
        "decisions": made,
        "stale": stale,
        "status": public["game"]["status"],
        "standings": public["observation"]["standings"],
        "django_loaded": any(name == "django" or name.startswith("django.") for name in sys.modules),
    }


if __name__ == "__main__":
    print(json.dumps(play(sys.argv[1], sys.argv[2:])))
