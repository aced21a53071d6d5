"""What every viewer of one version of a game sees alike, kept once for all
of them in the pages cache: the board, and the players' table with the
races run and the history. They are made from the spectator's view
(games.selectors.seat.public_sections), so they hold no one's secret.

With Django's low-level cache API rather than a {% cache %} fragment each:
the page that holds them asks for all of them in one round trip, and keeps
the ones it made together with itself in one more. A fragment tag asks and
keeps each on its own, and on the first view of a version that was four
round trips more (bench/web.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe


@dataclass
class Sections:
    """The sections' HTML by the names a page's template shows them by, and
    what was made afresh, by cache key, for the caller to keep with its page."""

    html: dict[str, SafeString]
    made: dict[str, SafeString] = field(default_factory=dict)


def _keys(context: dict, page: str) -> dict[str, str]:
    """A section's key says everything it shows: the game, the version (the
    races run: how many were run, and the names), the rows every viewer
    shares, how much history, and the language. ``page`` keeps the seat
    page's sections (a wide board too, a shorter history) apart from the
    spectator's."""
    game = context["game"]
    language = translation.get_language()
    version = f"{game.public_id}:{game.version}:{context['shared_key']}"
    return {
        "board_section": f"{page}-board:{version}:{language}",
        "players_section": f"{page}-players:{version}:{context['history_limit']}:{language}",
        "races_run_section": f"races-run:{game.public_id}:{context['races_run_key']}:{language}",
    }


def shared_sections(context: dict, *, page: str, board_template: str) -> Sections:
    """The sections of ``context``'s game (a page's context with the
    selector's public_sections and its ``shared_key``): each from the cache,
    or made from its template if it is not there. ``page`` names the page
    ("seat", "game"), ``board_template`` its drawing's template."""
    keys = _keys(context, page)
    kept = caches["pages"].get_many(keys.values())
    sections = Sections({name: kept[key] for name, key in keys.items() if key in kept})

    def made(name: str, template: str, **extra) -> SafeString:
        html = mark_safe(render_to_string(template, {**context, **extra}))
        sections.html[name] = sections.made[keys[name]] = html
        return html

    if "board_section" not in sections.html:
        made("board_section", board_template)
    if "players_section" not in sections.html:
        # The table of races run is the same from one race's end to the
        # next, so it is kept under a key of its own, and made only when the
        # players' section is.
        public = {"observation": context["public"]}
        races_run = sections.html.get("races_run_section") or made("races_run_section", "game/_results.html", **public)
        made("players_section", "game/_players_section.html", races_run=races_run, **public)
    return sections
