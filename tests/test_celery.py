import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

# Settings are read once per process, so the broker choice for a given
# environment is checked in a fresh interpreter.
PROBE = """
import json
from versailles_site.celery import app
conn = app.connection_for_write()
print(json.dumps({
    "driver": conn.transport.driver_type,
    "options": app.conf.broker_transport_options,
}))
"""


def probe_broker(**env_changes) -> dict:
    # Without VAR_DIR too: the test process has one of its own (tests/parallel.py),
    # and these probes are about what the settings choose unset.
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "VAR_DIR")}
    env.update(env_changes)
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_without_redis_url_celery_uses_the_filesystem_broker_under_var():
    broker = probe_broker()

    assert broker["driver"] == "filesystem"
    queue = Path(broker["options"]["data_folder_in"])
    assert queue == BASE_DIR / "var" / "celery" / "queue"
    assert queue.is_dir()
    assert Path(broker["options"]["processed_folder"]).is_dir()


def test_with_redis_url_celery_uses_redis():
    assert probe_broker(REDIS_URL="redis://127.0.0.1:6379/0")["driver"] == "redis"


def test_celery_accepts_json_only_and_keeps_no_results():
    from versailles_site.celery import app

    assert app.conf.accept_content == ["json"]
    assert app.conf.task_serializer == "json"
    assert app.conf.result_backend is None


def test_configured_broker_round_trips_a_message():
    # Filesystem locally, Redis in CI: either way a message must come back.
    from versailles_site.celery import app

    name = f"test-roundtrip-{uuid.uuid4().hex}"
    with app.connection_for_write() as conn:
        queue = conn.SimpleQueue(name, serializer="json")
        try:
            queue.put({"ping": name})
            message = queue.get(timeout=10)
            message.ack()
            assert message.payload == {"ping": name}
        finally:
            queue.queue.delete()
            queue.close()
