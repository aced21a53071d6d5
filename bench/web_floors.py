"""The floors of bench/web.py, served beside the product's pages by the
same server, middleware and database: the least work that still does each
job correctly."""

import os

from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import include, path
from django.views.decorators.http import require_GET, require_POST

from games.models import ActionRecord, Game, Notification

PAGE = b"x" * int(os.environ.get("BENCH_PAGE_BYTES", "20000"))


@require_GET
def static_page(request):
    """Ready-made bytes of the seat page's size: what no page can beat."""
    return HttpResponse(PAGE, content_type="text/html; charset=utf-8")


@require_POST
def minimal_decision(request):
    """Lock the game row, read it, update it, insert one log row and one
    outbox row, in one transaction; answer 302 as the decision view does."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=int(os.environ["BENCH_FLOOR_GAME"]))
        version = game.version + 1
        Game.objects.filter(pk=game.pk).update(version=version, decision_version=version)
        ActionRecord.objects.create(
            game=game, seq=version, seat=0, actor="player", source="web", action="pass", events=[]
        )
        Notification.objects.create(
            game=game, seat_id=int(os.environ["BENCH_FLOOR_SEAT"]), version=version, kind="turn",
            to_email="floor@example.com", template="turn", context={},
        )
    return HttpResponseRedirect("/bench/static")


urlpatterns = [
    path("bench/static", static_page),
    path("bench/decision", minimal_decision),
    path("", include("versailles_site.urls")),
]
