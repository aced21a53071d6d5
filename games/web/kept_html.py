"""Pieces of a page that are the same for every seat with the same inputs
(forms, whose widgets cost most of a page's rendering; the sections every
viewer of a game sees alike), made once and kept, with placeholders where
each request fills in its link and CSRF token."""

from __future__ import annotations

from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from games import page_marks
from games.selectors import page_cache
from games.selectors import seat as seat_reads


def kept_html(request, name: str, template: str, inputs: tuple | None, context: Callable[[], dict]) -> SafeString:
    """``template`` rendered with ``context()``, kept for ``inputs`` and the
    language: ``inputs`` must hold everything the context depends on (None:
    nothing tells what it depends on, so it is made afresh and not kept)."""

    def made() -> str:
        placeholders = {"token": page_marks.SEAT_LINK, "csrf_token": page_marks.CSRF_TOKEN}
        return render_to_string(template, {**placeholders, **context()}, request)

    html = made() if inputs is None else page_cache.kept(name, (*inputs, translation.get_language()), made)
    return mark_safe(html)  # noqa: S308 - our own template's output


def public_sections(request, page: dict) -> SafeString:
    """The board, the lot, the players' table, the races run and the history
    of a page's ``page`` context: what every viewer of the game sees alike,
    made from the spectator's view and kept for the page's
    ``sections_inputs`` (made afresh without them), with the viewer's own
    cards in the lot put in where the placeholder holds their place."""
    game = page["game"]

    def context() -> dict:
        shared = seat_reads.public_sections(game, page["names"], moderated=page["moderated"])
        return {**page, **shared, "my_cards_placeholder": mark_safe(page_marks.OWN_CARDS)}

    html = kept_html(request, "public-sections", "game/_public_sections.html", page["sections_inputs"], context)
    if page_marks.OWN_CARDS not in html:
        return mark_safe(html)  # noqa: S308 - our own template's output
    own = render_to_string("game/_my_cards.html", {"auction": page["observation"]["auction"]}, request)
    return mark_safe(html.replace(page_marks.OWN_CARDS, own))  # noqa: S308 - as above
