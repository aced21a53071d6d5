"""A bot written against the API alone (tests/api/bot.py: the standard
library over HTTP, no Django) plays a whole game on a live server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import ActionRecord, Game
from tests.api.helpers import api_tokens
from tests.factories import started_game

BOT = Path(__file__).with_name("bot.py")


@pytest.mark.django_db(transaction=True)
def test_a_bot_using_only_the_api_plays_a_whole_game(live_server, settings):
    # One client address plays all four seats here, as fast as the server
    # answers; the limits are tested on their own (test_rate_limits.py).
    settings.API_REQUESTS_PER_MINUTE_PER_CLIENT = 100_000
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 100_000
    game = started_game(4)
    secrets = api_tokens(game)
    assert not re.search(r"^\s*(import|from)\s+(django|games|versailles_site)\b", BOT.read_text(), re.M)
    finished = subprocess.run(
        [sys.executable, "-I", str(BOT), f"{live_server.url}/api/v1", *secrets.values()],
        capture_output=True, text=True, timeout=900, env={"PATH": "/usr/bin:/bin"},
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    report = json.loads(finished.stdout.strip().splitlines()[-1])
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and report["status"] == "over"
    assert report["django_loaded"] is False
    assert len(report["standings"]) == 4
    decisions = ActionRecord.objects.filter(game=game, actor=ActionRecord.Actor.PLAYER, source=ActionRecord.Source.API)
    assert decisions.count() == report["decisions"] > 100
