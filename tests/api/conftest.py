"""What the API's tests share: a four-seat game and its seats' API tokens."""

from __future__ import annotations

import pytest

from tests.api.helpers import api_tokens
from tests.factories import started_game


@pytest.fixture
def game():
    return started_game(4)


@pytest.fixture
def secrets(game):
    return api_tokens(game)
