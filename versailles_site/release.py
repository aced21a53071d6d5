"""The release the running code is: what the page cache's keys carry, so a
deploy never serves HTML that older code made."""

from __future__ import annotations

import hashlib
from pathlib import Path

# What makes a page: the code, the templates, the words and the static files.
_MADE_FROM = ("games/**/*.py", "versailles_site/**/*.py", "templates/**/*", "locale/**/*.po", "games/static/**/*")


def code_digest(base_dir: Path) -> str:
    """A short digest of every file a page is made from, for a deployment
    that sets no RELEASE: any change to them is a new release."""
    digest = hashlib.sha256()
    for pattern in _MADE_FROM:
        for path in sorted(base_dir.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(base_dir)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
