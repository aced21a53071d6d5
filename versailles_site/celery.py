import os

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger, task_postrun, task_prerun
from django.db import close_old_connections
from kombu.transport import TRANSPORT_ALIASES

from games.log_filters import HideSeatTokens

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "versailles_site.settings")
# filesystem:// (the embedded broker) with whole messages only (broker.py);
# set here, where every process that sends or takes a task starts.
TRANSPORT_ALIASES["filesystem"] = "versailles_site.broker:Transport"

# Every Celery option lives in settings.py as CELERY_<NAME>, next to the
# environment variables it depends on.
app = Celery("versailles")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# One instance, so that a second setup of the same handler adds nothing.
_hide_secrets = HideSeatTokens()


@after_setup_logger.connect
@after_setup_task_logger.connect
def hide_secrets_in_worker_logs(logger, **kwargs):
    """The worker and beat replace the root logger's handlers (and give the
    task logger its own), dropping the filtered ones from settings.LOGGING;
    filter theirs too, as task failures and printed output end up there."""
    for handler in logger.handlers:
        handler.addFilter(_hide_secrets)


@task_prerun.connect
@task_postrun.connect
def database_connections_as_for_a_request(task=None, **kwargs):
    """A task keeps its database connection as a web request does: for
    CONN_MAX_AGE, checked before reuse. (Celery's own rule, turned off by
    CELERY_DB_REUSE_MAX, closes it around every task: a new PostgreSQL
    connection for every email sent.) A task run in the caller's process
    uses the caller's connection, which is not the task's to close."""
    if not getattr(getattr(task, "request", None), "is_eager", False):
        close_old_connections()
