"""The JSON API (/api/v1/): a seat's view, history and decisions for a
bearer token made on the seat's page, and a game's public view for anyone.

Every answer is JSON, errors included: {"error": {"code", "message"}}, the
code stable for programs (games/web/openapi.py lists them), the message for
people, in the seat's language. The version rule is the web form's: a
decision names the decision version it answers, and a stale one changes
nothing. No cookies are read, so no CSRF check applies: a browser never
sends the Authorization header to another site by itself."""

from __future__ import annotations

import json
import re
from functools import wraps

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.handlers.asgi import ASGIRequest
from django.http import JsonResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import conditional_page

from games.selectors import api as api_reads
from games.selectors.public import game_by_public_id
from games.selectors.waits import database_call, version_after
from games.services.api_decisions import KEY_MAX, IdempotencyKeyReused, Outcome, api_decision_submit
from games.services.api_tokens import api_token_for_secret
from games.services.links import token_hash

from .decorators import number_in_query
from .limits import Limit, Standing, client_ip, limits_standing
from .openapi import document
from .openapi_words import AFTER_MAX, DECISION_MAX, ERROR_STATUS, IDEMPOTENCY_KEY_PATTERN, VERSION_MAX

AFTER_DIGITS = len(str(AFTER_MAX))


# Each refusal's status is the document's (openapi_words.ERROR_STATUS): one table for both.
def error(status: int, code: str, message: str | Promise, **headers) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": str(message)}}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _standing(request, token: str | None) -> Standing:
    per_client = Limit("api-client", settings.API_REQUESTS_PER_MINUTE_PER_CLIENT, 60)
    checks = [(per_client, client_ip(request))]
    if token:
        checks.append((Limit("api-token", settings.API_REQUESTS_PER_MINUTE_PER_TOKEN, 60), token_hash(token)))
    return limits_standing(checks)


def _rate_limited(retry_after: int) -> JsonResponse:
    return error(
        429,
        "rate_limited",
        ngettext(
            "Too many requests: try again in %(seconds)d second.",
            "Too many requests: try again in %(seconds)d seconds.",
            retry_after,
        )
        % {"seconds": retry_after},
        Retry_After=str(retry_after),
    )


def bearer_secret(request) -> str:
    scheme, _space, secret = request.headers.get("Authorization", "").partition(" ")
    return secret.strip() if scheme.lower() == "bearer" else ""


def runs_on_pool(request) -> bool:
    """Whether the request came through ASGI, where database reads leave the
    event loop for the loop's thread pool (games/selectors/waits.py); under
    WSGI the request's own thread reads, as for every other view."""
    return isinstance(request, ASGIRequest)


def _admitted(request, methods) -> tuple[HttpResponseBase | None, Standing]:
    """Where the client stands against its limits (this request counted),
    and a refusal for a request over them or with a wrong method, or None."""
    standing = _standing(request, bearer_secret(request) or None)
    if standing.retry_after is not None:
        return _rate_limited(standing.retry_after), standing
    if request.method not in methods:
        response = error(
            405,
            "method_not_allowed",
            _("This address answers %(methods)s only.") % {"methods": ", ".join(methods)},
        )
        response["Allow"] = ", ".join(methods)
        return response, standing
    return None, standing


def _finished(response: HttpResponseBase, standing: Standing) -> HttpResponseBase:
    response["Cache-Control"] = "no-store"
    # The IETF draft's fields, for the limit the client is closest to.
    response["RateLimit-Limit"] = str(standing.limit)
    response["RateLimit-Remaining"] = str(standing.remaining)
    response["RateLimit-Reset"] = str(standing.reset)
    return response


def api_view(methods):
    """JSON errors for wrong methods and bodies too large, the limits counted
    and told in RateLimit-* headers, never cached. Async views stay async."""

    def decorate(view):
        if iscoroutinefunction(view):

            @csrf_exempt
            @wraps(view)
            async def waiting(request, *args, **kwargs):
                refused, standing = await database_call(_admitted, request, methods, pooled=runs_on_pool(request))
                response = refused
                if response is None:
                    try:
                        response = await view(request, *args, **kwargs)
                    except RequestDataTooBig:
                        response = error(413, "too_large", _("The request is too large."))
                return _finished(response, standing)

            return waiting

        @csrf_exempt
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            response, standing = _admitted(request, methods)
            if response is None:
                try:
                    response = view(request, *args, **kwargs)
                except RequestDataTooBig:
                    response = error(413, "too_large", _("The request is too large."))
            return _finished(response, standing)

        return wrapped

    return decorate


def _unauthorized() -> JsonResponse:
    return error(
        401,
        "unauthorized",
        _("Send a valid API token as 'Authorization: Bearer <token>'. Tokens are made on the seat's page."),
        WWW_Authenticate='Bearer realm="versailles"',
    )


def with_api_seat(view):
    """The token the bearer secret is, for the seat it acts for, that
    seat's language active. For async views: every view of a seat is one."""

    @wraps(view)
    async def wrapped(request, *args, **kwargs):
        token = await database_call(api_token_for_secret, bearer_secret(request), pooled=runs_on_pool(request))
        if token is None:
            return _unauthorized()
        with translation.override(token.seat.language):
            response = await view(request, token, *args, **kwargs)
        response["Content-Language"] = token.seat.language
        return response

    return wrapped


def _history(request, game) -> JsonResponse:
    after = number_in_query(request, "after", "0", digits=AFTER_DIGITS)
    if after is None:
        return error(400, "bad_request", _("'after' must be a step number (0 or more)."))
    return JsonResponse(api_reads.history_page(game, after))


@api_view(["GET", "HEAD"])
@with_api_seat
@conditional_page
async def seat_view(request, token):
    """The seat's view; with ?wait=N, once the game's version passes N (at
    once if it has), or after API_WAIT_SECONDS as it stands."""
    pooled = runs_on_pool(request)
    if "wait" not in request.GET:
        return JsonResponse(await database_call(api_reads.game_view, token.seat.game, token.seat, pooled=pooled))
    seen = number_in_query(request, "wait", digits=AFTER_DIGITS)
    if seen is None:
        return error(400, "bad_request", _("'wait' must be a version of the game (0 or more)."))
    if token.seat.game.version <= seen:
        await version_after(token.seat.game_id, seen, settings.API_WAIT_SECONDS, pooled=pooled)
    return JsonResponse(await database_call(api_reads.seat_view_now, token.seat_id, pooled=pooled))


@api_view(["GET", "HEAD"])
@with_api_seat
@conditional_page
async def seat_history(request, token):
    return await database_call(_history, request, token.seat.game, pooled=runs_on_pool(request))


def _decision_body(request) -> tuple[str, int] | str:
    """The decision and its version from the JSON body, or what is wrong with it."""
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        return _("The body is not JSON.")
    if not isinstance(body, dict) or not set(body) <= {"decision", "version"}:
        return _('Send a JSON object: {"decision": "bid 12", "version": 7}.')
    text, version = body.get("decision"), body.get("version")
    if isinstance(version, float) and version.is_integer():
        version = int(version)  # JSON does not tell 7.0 from 7
    # Only what the document's schema refuses is a bad request; a text of
    # spaces fits it, and the notation refuses it (malformed_decision).
    if not isinstance(text, str) or not 0 < len(text) <= DECISION_MAX:
        return _("'decision' must be a decision in the notation, such as \"bid 12\" or \"pass\".")
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= VERSION_MAX:
        return _("'version' must be the decision version the decision answers (decision.version in the seat's view).")
    return text.strip(), version


def _idempotency_key(request) -> str | None:
    """The Idempotency-Key header, or "" for one that is not a key."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    return key if len(key) <= KEY_MAX and re.fullmatch(IDEMPOTENCY_KEY_PATTERN, key) else ""


@api_view(["POST"])
@with_api_seat
async def seat_decision(request, token):
    # One call on one thread: the decision's transaction begins and ends in it.
    return await database_call(_decide, request, token, pooled=runs_on_pool(request))


def _decide(request, token) -> JsonResponse:
    seat = token.seat
    key = _idempotency_key(request)
    if key == "":
        return error(400, "bad_request", _("'Idempotency-Key' must be 1 to 255 printable ASCII characters."))
    parsed = _decision_body(request)
    if isinstance(parsed, str):
        return error(400, "bad_request", parsed)
    text, version = parsed

    def answer(outcome: Outcome) -> tuple[int, dict]:
        refusal = outcome.refusal
        if refusal is not None:
            body: dict = {"error": {"code": refusal.code, "message": str(refusal.message)}}
            if refusal.code == "stale_decision":
                body.update(api_reads.stale_details(seat.game_id, seat.pk, version))
            return ERROR_STATUS.get(refusal.code, 422), body
        game = outcome.game
        assert game is not None  # an outcome is a game or a refusal
        return 200, {
            "accepted": text,
            "changed": outcome.changed,
            "game": {"status": game.status, "version": game.version, "decision_version": game.decision_version},
        }

    try:
        result = api_decision_submit(token=token, text=text, version=version, key=key, answer=answer)
    except IdempotencyKeyReused as refusal:
        return error(ERROR_STATUS[refusal.code], refusal.code, refusal.message)
    response = JsonResponse(result.body, status=result.status)
    if key is not None:
        response["Idempotent-Replayed"] = "true" if result.replayed else "false"
    return response


def with_public_game(view):
    @wraps(view)
    async def wrapped(request, public_id, *args, **kwargs):
        pooled = runs_on_pool(request)
        game = await database_call(game_by_public_id, public_id, pooled=pooled) if len(public_id) <= 32 else None
        if game is None:
            return error(404, "not_found", _("There is no game with this id."))
        return await view(request, game, *args, **kwargs)

    return wrapped


@api_view(["GET", "HEAD"])
@with_public_game
@conditional_page
async def game_view(request, game):
    return JsonResponse(await database_call(api_reads.game_view, game, None, pooled=runs_on_pool(request)))


@api_view(["GET", "HEAD"])
@with_public_game
@conditional_page
async def game_history(request, game):
    return await database_call(_history, request, game, pooled=runs_on_pool(request))


@api_view(["GET", "HEAD"])
def openapi(request):
    return JsonResponse(document(request.build_absolute_uri("/api/v1")), json_dumps_params={"indent": 1})


@csrf_exempt
def not_found(request, rest=""):
    refused, standing = _admitted(request, [request.method])
    missing = error(404, "not_found", _("There is no such address in the API."))
    return _finished(refused if refused is not None else missing, standing)
