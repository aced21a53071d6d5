"""Settings and URLconf of the web bench's server (bench/web.py starts
gunicorn with DJANGO_SETTINGS_MODULE=web_site): the product's settings and
pages, plus the floors, which live here and never in the product."""

from versailles_site.settings import *  # noqa: F403

ROOT_URLCONF = "web_floors"
# Nothing leaves the process: mail stays in memory, and the on-commit
# enqueueing of the send task goes to kombu's in-memory transport (the cost of
# handing it over stays in the figure).
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
TASKS_INLINE = False
