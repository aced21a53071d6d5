"""The local dev mailbox: with no provider configured, sent mail is kept as
.eml files under var/mail/, and a DEBUG-only page lists and shows them."""

from __future__ import annotations

import base64
import email
import email.message
import email.parser
import email.policy
import email.utils
import time
from collections.abc import Sequence
from datetime import UTC
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend


def mailbox_dir() -> Path:
    folder = Path(settings.VAR_DIR) / "mail"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class MailboxBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        folder = mailbox_dir()
        sent = 0
        for message in email_messages:
            # Nanoseconds first, so names sort by arrival.
            name = f"{time.time_ns()}-{sent}.eml"
            (folder / name).write_bytes(message.message().as_bytes())
            sent += 1
        return sent


PER_PAGE = 50


def mailbox_page(*, to: str = "", page: int = 1, per_page: int = PER_PAGE) -> dict[str, Any]:
    """One page of the mailbox, newest first, optionally only the mail whose
    To: contains ``to`` (any case); ``page`` is clamped to the pages there are."""
    files = sorted(mailbox_dir().glob("*.eml"), key=lambda path: _arrival(path.name), reverse=True)
    to = to.strip().lower()
    rows: list[dict[str, Any]] | list[Path] = (
        [row for row in (_row(path) for path in files) if to in (row["to"] or "").lower()] if to else files
    )
    pages = max(1, -(-len(rows) // per_page))
    page = min(max(page, 1), pages)
    chosen = rows[(page - 1) * per_page : page * per_page]
    return {
        "rows": [row if isinstance(row, dict) else _row(row) for row in chosen],
        "page": page,
        "pages": pages,
        "count": len(rows),
    }


def _arrival(name: str) -> tuple[int, int]:
    """Names are <nanoseconds>-<n>.eml: compare them as numbers, since the
    nanoseconds need not all have the same number of digits."""
    stamp, _, rest = name.partition("-")
    number = rest.removesuffix(".eml")
    return (int(stamp) if stamp.isdigit() else 0, int(number) if number.isdigit() else 0)


def _row(path: Path) -> dict[str, Any]:
    return dict(mailbox_read_headers(path), name=path.name)


def mailbox_read_headers(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        # Headers only: the list need not parse every board picture.
        parsed = email.parser.BytesHeaderParser(policy=email.policy.default).parse(handle)
    return {
        "subject": parsed["subject"],
        "to": parsed["to"],
        "date": _date(parsed["date"]),
        "game": parsed["x-versailles-game"] or "",
    }


def _date(value: object) -> str:
    """The date as 2026-12-01 03:58 (UTC), or as written if unreadable."""
    try:
        return email.utils.parsedate_to_datetime(str(value)).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError):
        return str(value or "")


def mailbox_message(name: str) -> dict[str, Any] | None:
    """One stored message's headers and parts, or None for an unknown name."""
    if "/" in name or "\\" in name or not name.endswith(".eml"):
        return None
    path = mailbox_dir() / name
    if not path.is_file():
        return None
    parsed = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    text = parsed.get_body(preferencelist=("plain",))
    html = parsed.get_body(preferencelist=("html",))
    return {
        "name": name,
        "subject": parsed["subject"],
        "to": parsed["to"],
        "from": parsed["from"],
        "date": _date(parsed["date"]),
        "game": parsed["x-versailles-game"] or "",
        "text": text.get_content() if text else "",
        "html": _inline_pictures(html.get_content(), parsed) if html else "",
    }


def _inline_pictures(html: str, parsed: email.message.Message) -> str:
    """The HTML with every src="cid:..." replaced by the picture it names, as
    a data: URL: the page is shown on its own, where cid: means nothing."""
    for part in parsed.walk():
        content_id = (part["content-id"] or "").strip().strip("<>")
        if not content_id or part.get_content_maintype() != "image":
            continue
        payload = part.get_payload(decode=True)
        data = base64.b64encode(payload if isinstance(payload, bytes) else b"").decode("ascii")
        url = f"data:{part.get_content_type()};base64,{data}"
        html = html.replace(f'src="cid:{content_id}"', f'src="{url}"')
    return html
