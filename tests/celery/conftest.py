# The worker fixtures live in tests/worker.py, shared with the browser tests.
from tests.worker import celery_env, celery_worker  # noqa: F401
