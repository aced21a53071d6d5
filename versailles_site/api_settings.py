"""The settings of the process that serves the JSON API under ASGI
(docker-compose.yml's api service, to which a balancer sends /api/v1/): the
site's own, with only the middleware the API needs.

Under ASGI each hook of a middleware built on Django's MiddlewareMixin runs
on a thread, a hop from the event loop and back, and those hops cost an API
decision 1.6–2.6 ms, about a seventh of it (bench/asgi_middleware.py). The API uses
nothing of sessions, CSRF (its views are exempt: a bearer token is no
cookie), messages, authentication, the clickjacking header on JSON or the
lockout page of the sign-in it does not have. Kept: Django's security
middleware (the HTTPS redirect, HSTS, nosniff), the locale (the errors told
before a token is read speak the client's Accept-Language), the common
middleware (its Content-Length: without it uvicorn sends every answer
chunked, which a client reading a plain HTTP/1.0-style body cannot parse)
and the project's own, which are async and hop nowhere."""

from .settings import *  # noqa: F403
from .settings import MIDDLEWARE as SITE_MIDDLEWARE

API_MIDDLEWARE_KEPT = (
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
)
PROJECT_PREFIXES = ("versailles_site.", "games.")

# In the site's order: a middleware's place among the others stays its own.
MIDDLEWARE = [path for path in SITE_MIDDLEWARE if path in API_MIDDLEWARE_KEPT or path.startswith(PROJECT_PREFIXES)]

# The admin's and django-axes' checks ask for the middleware dropped above:
# this process serves neither the admin nor a sign-in (the balancer sends it
# /api/v1/ only), and `manage.py check` with these settings must still pass.
SILENCED_SYSTEM_CHECKS = ["admin.E408", "admin.E409", "admin.E410", "axes.W002"]
