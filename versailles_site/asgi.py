"""The ASGI entry, for serving under an ASGI server (production: gunicorn
with uvicorn's worker, see the Dockerfile): the API's waits and event
streams then hold no thread while they wait (games/selectors/waits.py)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "versailles_site.settings")

application = get_asgi_application()
