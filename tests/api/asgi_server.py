"""The API served as production serves it (gunicorn with uvicorn's worker,
versailles_site.asgi, with the API process's settings,
versailles_site/api_settings.py), on this test's database, for the tests of
waiting clients: under ASGI a wait must hold no thread, which a WSGI live
server cannot show."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.worker import database_env, wait_until

BASE_DIR = Path(__file__).resolve().parent.parent.parent


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path


@contextmanager
def asgi_server(tmp_path: Path, **settings_env: str) -> Iterator[Server]:
    """gunicorn -k uvicorn_worker.UvicornWorker, one worker, on a free port."""
    log_path = tmp_path / "asgi.log"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH", "GUNICORN_CMD_ARGS")}
    env.update(database_env(), DJANGO_SETTINGS_MODULE="versailles_site.api_settings", PYTHONUNBUFFERED="1")
    # Every request of a test comes from one address, as fast as it can.
    env.update(API_REQUESTS_PER_MINUTE_PER_CLIENT="1000000", API_REQUESTS_PER_MINUTE_PER_TOKEN="1000000")
    env.update(settings_env)
    command = [
        sys.executable, "-m", "gunicorn", "-c", "versailles_site/gunicorn_conf.py", "versailles_site.asgi",
        "-k", "uvicorn_worker.UvicornWorker", "--bind", "127.0.0.1:0", "--workers", "1", "--no-control-socket",
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)

    def listening() -> str | None:
        output = log_path.read_text(errors="replace")
        if process.poll() is not None:
            raise AssertionError(f"gunicorn exited with {process.returncode}:\n{output}")
        started = "Application startup complete" in output
        match = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", output)
        return match.group(1) if match and started else None

    try:
        url = wait_until(listening, timeout=60, what="the ASGI server to listen")
        yield Server(url, process, log_path)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
