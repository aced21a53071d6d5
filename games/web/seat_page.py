"""The page a seat link opens, assembled in one place: what it shows
(games.selectors.seat), its forms, and the cache that keeps it.

The page below the header is cached whole for the seat, the game's version,
every row it shows (games.selectors.game_page) and the language. Nothing in
it differs from one request to the next: its forms post to addresses
relative to the page, so the seat link is not in the cached HTML, and each
form's CSRF token is added outside it (seat/seat.html), by the form's id."""

from __future__ import annotations

import re

from django.core.cache import caches
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.selectors import seat as seat_reads
from games.selectors.game_page import PAGE_SECONDS, PageRows, page_rows, seat_and_its_table, seat_page_rows
from games.selectors.open_games import join_token

from .decorators import number_in_query, private, with_seat
from .forms import AcceptForm, ArrangeForm
from .sections import shared_sections

# Every form of the page opens with its id (seat/_*.html), which the CSRF
# tokens outside the cached HTML name.
FORM_ID = re.compile(r'<form [^>]*\bid="([\w-]+)"')


@require_safe
@private
def seat_page(request, token):
    """The game as the seat sees it, and the decision it has to make: from
    the cache while no row it shows has changed (one query, the link's
    check and one cache read); otherwise made afresh, and kept."""
    rows = seat_page_rows(token)
    if rows is None or rows.viewer is None or not rows.viewer.playing:
        # A link that opens nothing, or an invitation: with_seat says which.
        return _page_made(request, token, rows=None)
    viewer = rows.viewer
    # The seat's language, not the browser's: the same link reads the same
    # on the player's phone and laptop, and as their emails do.
    with translation.override(viewer.language):
        page = caches["pages"].get(_key(request, viewer.seat_id, rows))
        if page is None:
            # The link was checked with the rows: the seat and its table are
            # read by the ids they gave.
            table = seat_and_its_table(viewer)
            if table is None:  # the seat went between the two reads
                return _page_made(request, token, rows=None)
            page = _page_kept(request, *table, rows)
        request.LANGUAGE_CODE = viewer.language
        response = render(request, "seat/seat.html", page)
    response["Content-Language"] = viewer.language
    return response


def _since(request, version: int) -> int | None:
    """The game version an emailed link was written at; a "since" that is
    not an earlier version shows nothing, whatever it is."""
    since = number_in_query(request, "since")
    return since if since is not None and since < version else None


def _key(request, seat_id: int, rows: PageRows) -> str:
    since = _since(request, rows.version)
    language = translation.get_language()
    return f"seat-page:{seat_id}:{rows.version}:{rows.digest}:{since}:{language}"


@with_seat
def _page_made(request, seat, token, rows: PageRows | None):
    game = seat.game
    if seat_reads.is_inviting(game):
        return inviting_page(request, seat, token)
    page = _page_kept(request, seat, None, rows or page_rows(game))
    return render(request, "seat/seat.html", page)


def _page_kept(request, seat, seats: list | None, rows: PageRows) -> dict:
    """The page made from ``seats`` (``seat`` among them; None: read them), kept under the
    key of the rows read before it was made: a page is never filed under
    rows newer than the ones it shows."""
    page, sections_made = _page(
        seat,
        seats,
        _since(request, rows.version),
        moderated=rows.moderated,
        shared_key=rows.shared_key(seat.time_zone),
    )
    # The page and the sections it made for every viewer, in one round trip.
    caches["pages"].set_many({_key(request, seat.pk, rows): page, **sections_made}, PAGE_SECONDS)
    return page


def _page(seat, seats: list | None, since: int | None, *, moderated: bool, shared_key: str) -> tuple[dict, dict]:
    """The title and the HTML below the header, and the ids of its forms;
    and the shared sections it made, by key, to be kept with it. Made
    without the request, so nothing of one request can be kept."""
    context = seat_reads.seat_page(seat, since=since, moderated=moderated, seats=seats)
    context.update(page_seconds=PAGE_SECONDS, shared_key=shared_key)
    if context["can_arrange"]:
        context["arrange_form"] = ArrangeForm(codes=context["arrange_codes"])
    sections = shared_sections(context, page="seat", board_template="seat/_board_section.html")
    context.update(sections.html)
    body = render_to_string("seat/_page.html", context)
    title = _("Your move") + " · Galopp Royal" if context["my_turn"] else "Galopp Royal"
    # The version the body shows, for the script that follows the game
    # (game/_follow.html): the key's, or newer, never older.
    page = {"title": title, "body": body, "form_ids": FORM_ID.findall(body), "version": seat.game.version}
    return page, sections.made


def inviting_page(request, seat, token, *, accept_form=None, status=200):
    """Before the game starts: who is in, and the form to take the seat.
    Never cached: it changes as seats are taken."""
    context = seat_reads.seat_page(seat)
    if seat.accepted_at is None and accept_form is None:
        accept_form = AcceptForm(
            free_colours=context["free_colours"],
            # The browser's language, which the page is shown in until the seat has one.
            initial={"display_name": seat.display_name, "time_zone": "UTC", "language": request.LANGUAGE_CODE},
        )
    context.update(token=token, accept_form=accept_form)
    if seat.is_host and seat.game.join_hash:
        context["join_path"] = request.build_absolute_uri(reverse("open_join", args=[join_token(seat.game)]))
    return render(request, "seat/seat_inviting.html", context, status=status)
