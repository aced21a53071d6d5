"""The local dev mailbox: with no provider configured, sent mail is kept as
.eml files under var/mail/, and a DEBUG-only page lists and shows them."""

from __future__ import annotations

import email
import email.policy
import time
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend


def mailbox_dir() -> Path:
    folder = Path(settings.VAR_DIR) / "mail"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class MailboxBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        folder = mailbox_dir()
        sent = 0
        for message in email_messages:
            # Nanoseconds first, so names sort by arrival.
            name = f"{time.time_ns()}-{sent}.eml"
            (folder / name).write_bytes(message.message().as_bytes())
            sent += 1
        return sent


def mailbox_list(limit: int = 200) -> list[dict]:
    files = sorted(mailbox_dir().glob("*.eml"), reverse=True)[:limit]
    return [dict(mailbox_read_headers(path), name=path.name) for path in files]


def mailbox_read_headers(path: Path) -> dict:
    with path.open("rb") as handle:
        parsed = email.message_from_binary_file(handle, policy=email.policy.default)
    return {"subject": parsed["subject"], "to": parsed["to"], "date": parsed["date"]}


def mailbox_message(name: str) -> dict | None:
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
        "date": parsed["date"],
        "text": text.get_content() if text else "",
        "html": html.get_content() if html else "",
    }
