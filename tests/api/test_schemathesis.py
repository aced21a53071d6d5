"""Schemathesis, given nothing but the served document, a seat's token and a
player token of that seat's address, tests every operation of the API on a
live server in all its phases (the document's examples, coverage of its edges, fuzzing, and stateful
sequences that follow the document's links) with every check it has, and
finds no failure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games import engine
from games.services.game_state import load_state
from games.services.home import home_link_issue
from games.services.player_tokens import player_token_create
from tests.api.helpers import api_tokens
from tests.factories import seat_at, started_game

CLI = Path(sys.executable).with_name("schemathesis")

# A decision that fits the schema may still be one the game refuses now:
# 409 (another decision came first, or another seat decides) and 422 (the
# rules forbid it, or the text is no decision in the notation). The
# document says so for each; the schema cannot know the game's moment.
CONFIG = """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401", "404", "409", "422"]

# Each operation with the token of its scheme: a seat's for /seat, the
# player's for /me/ (and each refuses the other's: tests/api/test_my_games.py).
[auth.openapi.seatToken]
bearer = "{seat}"

[auth.openapi.playerToken]
bearer = "{player}"
"""


@pytest.mark.heavy
@pytest.mark.django_db(transaction=True)
def test_schemathesis_finds_no_failure_in_any_operation_of_the_api(live_server, settings, tmp_path):
    # Hundreds of requests from one address in a few seconds: the limits
    # are tested on their own (test_rate_limits.py).
    settings.API_REQUESTS_PER_MINUTE_PER_CLIENT = 1_000_000
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 1_000_000
    # A wait or a stream lasts its whole time on a game that stands still;
    # short ones keep the run short (tests/api/test_waits*.py test them).
    settings.API_WAIT_SECONDS = 0.1
    settings.API_WAIT_POLL_SECONDS = 0.05
    settings.API_STREAM_SECONDS = 0.1
    game = started_game(4)
    position = engine.to_move(load_state(game))
    secret = api_tokens(game)[position]
    _made, player = player_token_create(link=home_link_issue(email=seat_at(game, position).email), label="fuzz")
    (tmp_path / "schemathesis.toml").write_text(CONFIG.format(seat=secret, player=player))
    run = subprocess.run(
        [
            str(CLI), "--config-file", str(tmp_path / "schemathesis.toml"),
            "run", f"{live_server.url}/api/v1/openapi.json",
            "--phases", "examples,coverage,fuzzing,stateful",
            "--checks", "all",
            "--max-examples", "30",
            "--seed", "20261204",
            "--workers", "1",
            "--generation-database", "none",
            "--request-timeout", "20",
            "--no-color",
        ],
        capture_output=True, text=True, timeout=240, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    summary = run.stdout[run.stdout.rindex("SUMMARY") :]
    assert "Selected: 9/9" in summary and "Tested: 9" in summary, summary
    assert "Stateful" in summary and "failed" not in summary, summary
