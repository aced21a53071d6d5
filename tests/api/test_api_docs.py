"""The page that explains the API to players, linked from the home page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_api_page_is_linked_from_the_home_page_and_names_the_limits(client, settings):
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 77
    assert "/api/" in client.get("/").content.decode()
    page = client.get("/api/").content.decode()
    assert "/api/v1/openapi.json" in page and "Authorization: Bearer" in page
    assert "77 requests a minute" in page


def test_the_api_page_speaks_german(client):
    page = client.get("/api/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Programm" in page
