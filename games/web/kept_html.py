"""Pieces of a page that are the same for every seat with the same inputs
(forms, whose widgets cost most of a page's rendering), made once and kept,
with placeholders where each request fills in its link and CSRF token."""

from __future__ import annotations

from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from games.selectors import page_cache


def kept_html(request, name: str, template: str, inputs: tuple, context: Callable[[], dict]) -> SafeString:
    """``template`` rendered with ``context()``, kept for ``inputs`` and the
    language: ``inputs`` must hold everything the context depends on."""

    def made() -> str:
        placeholders = {"token": page_cache.TOKEN_PLACEHOLDER, "csrf_token": page_cache.CSRF_PLACEHOLDER}
        return render_to_string(template, {**placeholders, **context()}, request)

    html = page_cache.kept(name, (*inputs, translation.get_language()), made)
    return mark_safe(html)  # noqa: S308 - our own template's output
