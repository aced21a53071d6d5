import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "versailles_site.settings")

# Every Celery option lives in settings.py as CELERY_<NAME>, next to the
# environment variables it depends on.
app = Celery("versailles")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
