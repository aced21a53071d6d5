"""Pages for anyone: the home page, a new game, the spectator's view, the
check of the dice, and asking for one's links again."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.http import require_http_methods, require_safe

from games.selectors.game_page import PAGE_SECONDS, page_rows
from games.selectors.public import game_json, spectator_page, verify_report
from games.selectors.rules import rules_page
from games.services.enqueue import enqueue_now
from games.services.errors import ServiceError
from games.services.setup import game_create

from .decorators import game_or_404
from .forms import LinkResendForm, NewGameForm
from .limits import GAMES_PER_CLIENT, LINKS_PER_ADDRESS, LINKS_PER_CLIENT, client_ip, limits_hit, too_many
from .sections import shared_sections

# A sedan-chair gold dot; browsers ask for /favicon.ico whatever the page says,
# and a 404 there is an error in every console.
FAVICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    '<circle cx="8" cy="8" r="7" fill="#7a5c1e"/></svg>'
)


@require_safe
def api_docs(request):
    return render(
        request,
        "public/api.html",
        {
            "per_token": settings.API_REQUESTS_PER_MINUTE_PER_TOKEN,
            "per_client": settings.API_REQUESTS_PER_MINUTE_PER_CLIENT,
        },
    )


@require_safe
def favicon(request):
    response = HttpResponse(FAVICON_SVG, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def home(request):
    return render(request, "public/home.html")


@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request):
    # An open game's language starts as the page's.
    form = NewGameForm(request.POST or None, initial={"game_language": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # Counted once the form is valid: a typo costs no try.
        retry_after = limits_hit([(GAMES_PER_CLIENT, client_ip(request))])
        if retry_after:
            return too_many(request, retry_after)
        try:
            game_create(
                host_name=data["host_name"],
                host_email=data["host_email"],
                other_emails=data["other_emails"],
                decision_hours=data["decision_hours"],
                ruleset_name=data["ruleset"],
                language=request.LANGUAGE_CODE,
                computers=form.computers(),
                opening=form.opening(request.LANGUAGE_CODE),
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game_created")
    return render(request, "public/new.html", {"form": form}, status=400 if form.errors else 200)


@require_safe
def game_created(request):
    return render(request, "public/created.html")


@require_safe
def spectator(request, public_id):
    """The game as anyone may see it, in the browser's language: below the
    header, cached for the game's version and every row it shows."""
    game = game_or_404(public_id)
    rows = page_rows(game)
    pages = caches["pages"]
    key = f"spectator-page:{game.public_id}:{game.version}:{rows.digest}:{translation.get_language()}"
    body = pages.get(key)
    if body is None:
        context = spectator_page(game, moderated=rows.moderated)
        context["shared_key"] = rows.shared_key("UTC")
        sections_made = {}
        if game.state is not None:
            sections = shared_sections(context, page="game", board_template="game/_board.html")
            context.update(sections.html)
            sections_made = sections.made
        # Made without the request, so nothing of one request can be kept.
        body = render_to_string("public/_spectator.html", context)
        pages.set_many({key: body, **sections_made}, PAGE_SECONDS)
    return render(request, "public/spectator.html", {"body": body, "version": game.version})


@require_safe
def spectator_json(request, public_id):
    return JsonResponse(game_json(game_or_404(public_id), None))


@require_safe
def verify(request, public_id):
    game = game_or_404(public_id)
    return render(request, "public/verify.html", {"game": game, "report": verify_report(game)})


@require_http_methods(["GET", "HEAD", "POST"])
def link_resend_view(request):
    form = LinkResendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"].strip().lower()
        retry_after = limits_hit([(LINKS_PER_ADDRESS, email), (LINKS_PER_CLIENT, client_ip(request))])
        if retry_after:
            return too_many(request, retry_after)
        # The worker finds the seats: the same page, as fast, whether or not
        # the address plays anywhere.
        enqueue_now("games.link_resend", email)
        return redirect("link_sent")
    return render(request, "public/link_resend.html", {"form": form}, status=400 if form.errors else 200)


@require_safe
def link_sent(request):
    return render(request, "public/link_sent.html")


@require_safe
def rules(request):
    """The rules in the site's words, with the numbers of ?ruleset= (classic by default)."""
    name = request.GET.get("ruleset", "")
    page = rules_page(name)
    if page is None:
        # An unknown name is a typo in a link: say so, and offer the real ones.
        return render(request, "public/rules.html", {"unknown": name, "page": rules_page(None)}, status=404)
    return render(request, "public/rules.html", {"page": page})
