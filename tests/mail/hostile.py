"""Emails built to hurt a parser, as anyone who can mail the reply domain can send them."""

from __future__ import annotations

import json
import random
import uuid

from games.models import Seat

from .helpers import reply


def _headers(to: str, extra: str = "", message_id: str | None = None) -> str:
    return (
        "From: Mallory <mallory@example.net>\r\n"
        f"To: {to}\r\n"
        "Subject: Re: Galopp Royal: your turn\r\n"
        f"Message-ID: {message_id or f'<{uuid.uuid4().hex}@client.example>'}\r\n"
        "MIME-Version: 1.0\r\n" + extra
    )


def many_recipients(reply_to: str, count: int = 15_000) -> str:
    """One To: of ``count`` named addresses (the reply address among them)."""
    others = ", ".join(f'"Person {i}, esq." <person{i}@example.org>' for i in range(count))
    return _headers(f"{others}, {reply_to}", 'Content-Type: text/plain; charset="utf-8"\r\n') + "\r\npass\r\n"


def many_parts(reply_to: str, count: int = 20_000) -> str:
    parts = "".join(f"--B\r\nContent-Type: text/plain\r\n\r\npass {i}\r\n" for i in range(count))
    return _headers(reply_to, "Content-Type: multipart/mixed; boundary=B\r\n") + f"\r\n{parts}--B--\r\n"


def deep_nesting(reply_to: str, depth: int = 2_000) -> str:
    opening = "".join(f"Content-Type: multipart/mixed; boundary=b{i}\r\n\r\n--b{i}\r\n" for i in range(depth))
    closing = "".join(f"\r\n--b{i}--\r\n" for i in reversed(range(depth)))
    return _headers(reply_to) + opening + "Content-Type: text/plain\r\n\r\npass" + closing


def many_header_fields(reply_to: str, count: int = 100_000) -> str:
    fields = "".join(f"X-Filler-{i}: {i}\r\n" for i in range(count))
    return _headers(reply_to, fields) + "\r\npass\r\n"


def too_large(reply_to: str, size: int = 1_200_000) -> str:
    """A reply with a big attachment: well formed, just more than is read."""
    blob = "\r\n".join("A" * 76 for _ in range(size // 78))
    return _headers(reply_to, "Content-Type: multipart/mixed; boundary=B\r\n") + (
        "\r\n--B\r\nContent-Type: text/plain\r\n\r\npass\r\n"
        f"--B\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n{blob}\r\n--B--\r\n"
    )


def postmark_raw(raw: str, to: str) -> dict:
    """Postmark's inbound JSON carrying the message as RawEmail."""
    return {
        "From": "mallory@example.net",
        "FromFull": {"Email": "mallory@example.net", "Name": "", "MailboxHash": ""},
        "To": to,
        "ToFull": [{"Email": to, "Name": "", "MailboxHash": ""}],
        "OriginalRecipient": to,
        "Subject": "Re: Galopp Royal",
        "MessageID": str(uuid.uuid4()),
        "Date": "Mon, 5 Jan 2026 16:09:19 +0100",
        "TextBody": "",
        "HtmlBody": "",
        "Headers": [],
        "Attachments": [],
        "RawEmail": raw,
    }


def postmark_body(raw: str, to: str) -> str:
    return json.dumps(postmark_raw(raw, to))


# The fuzz generator: every kind of damage the hostile-reply survey found, mixed.

CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "x-unknown-zz", "utf-7", "", "\x00", "ü", "utf-16", "cp1252;;"]
# None: a fresh, valid id; the fixed valid ones make a few deliveries repeat.
MESSAGE_IDS = ["<@>", "<>", "", "<a@b>", "no-brackets", "<\x00@x>", "<" + "x" * 3000 + "@y>", "<é@ü>"] + [None] * 8
FIRST_LINES = [
    "pass",
    "bid 3",
    "bid 999",
    "roll",
    "hello",
    "",
    ">quoted",
    "\x00pass",
    "p\u0000ss",
    "push none",
    "\udce9",
]


class Fuzz:
    """A seeded stream of hostile replies; each comes with whether its reply
    address is valid."""

    def __init__(self, seed: int, seats: list[Seat], valid_address):
        self.rng = random.Random(seed)
        self.seats = seats
        self.valid_address = valid_address

    def text(self, length: int) -> str:
        alphabet = "abc XYZ:;<>@=?\"'\t\r\n\x00\x7f\u00e9\u4e2d\ud83d\udcff-+./\\"
        return "".join(self.rng.choice(alphabet) for _ in range(length))

    def address(self) -> tuple[str, bool]:
        seat = self.rng.choice(self.seats)
        good = self.valid_address(seat)
        choice = self.rng.randrange(6)
        if choice < 2:
            return good, True
        local, _, domain = good.partition("@")
        return [
            f"{local[:-1]}{'1' if local.endswith('0') else '0'}@{domain}",  # one digit of the secret wrong
            f"reply+{seat.pk}.1.{'f' * 32}@{domain}",
            f"reply+{self.rng.randrange(10**6)}.{self.rng.randrange(99)}.{uuid.uuid4().hex}@{domain}",
            self.text(self.rng.randrange(1, 60)),
        ][choice - 2], False

    def headers(self, to: str) -> list[str]:
        rng = self.rng
        message_id = rng.choice(MESSAGE_IDS)
        lines = [f"From: {self.text(rng.randrange(0, 40))}", f"To: {to}"]
        if message_id is None:
            message_id = f"<{uuid.uuid4().hex}@fuzz.example>"
        if message_id:
            lines.append(f"Message-ID: {message_id}")
        for _ in range(rng.randrange(0, 6)):
            name = rng.choice(["Subject", "Cc", "X-Junk", "Content-Transfer-Encoding", "Date", "Received", "To"])
            lines.append(f"{name}: {self.text(rng.randrange(0, 80))}")
        if rng.random() < 0.05:
            lines.append("X-Huge: " + "y" * rng.randrange(60_000, 200_000))
        if rng.random() < 0.05:
            lines.extend(f"X-Many-{i}: v" for i in range(rng.randrange(300, 3_000)))
        if rng.random() < 0.08:
            lines.append(f"Auto-Submitted: {rng.choice(['auto-replied', 'no', 'x', ''])}")
        if rng.random() < 0.1:
            lines.append(f"Cc: {', '.join(f'c{i}@example.org' for i in range(rng.randrange(100, 3_000)))}")
        return lines

    def body(self) -> tuple[str, str]:
        """(content-type header, body)"""
        rng = self.rng
        kind = rng.randrange(7)
        charset = rng.choice(CHARSETS)
        first = rng.choice(FIRST_LINES)
        if kind == 0:
            return f"Content-Type: text/plain; charset={charset}", f"{first}\r\n{self.text(rng.randrange(0, 300))}"
        if kind == 1:
            return "Content-Type: text/html; charset=utf-8", f"<p>{first}</p><div>{self.text(100)}"
        if kind == 2:  # nesting, sometimes far too deep
            depth = rng.choice([1, 3, 30, 200, 1_200, 2_000])
            opening = "".join(
                f"--n{i}\r\nContent-Type: multipart/mixed; boundary=n{i + 1}\r\n\r\n" for i in range(depth)
            )
            closing = "".join(f"\r\n--n{i}--" for i in reversed(range(depth + 1)))
            inner = f"--n{depth}\r\nContent-Type: text/plain; charset={charset}\r\n\r\n{first}\r\n"
            return "Content-Type: multipart/mixed; boundary=n0", opening + inner + closing
        if kind == 3:  # many parts
            count = rng.choice([2, 10, 150, 600, 5_000])
            parts = "".join(f"--P\r\nContent-Type: text/plain\r\n\r\n{first}\r\n" for _ in range(count))
            return "Content-Type: multipart/alternative; boundary=P", parts + "--P--"
        if kind == 4:  # base64 that decodes to NULs and junk
            encoded = rng.choice(["AAAA", "cGFzcwA=", "!!!not base64", "cGFzcw==", ""])
            return f"Content-Type: text/plain; charset={charset}\r\nContent-Transfer-Encoding: base64", encoded
        if kind == 5:  # broken MIME: boundary never used, missing, or garbage
            return f"Content-Type: multipart/mixed; boundary={self.text(5)}", self.text(rng.randrange(0, 500))
        return f"Content-Type: {self.text(12)}", self.text(rng.randrange(0, 2_000))

    def message(self) -> tuple[str, bool]:
        to, valid = self.address()
        rng = self.rng
        if rng.random() < 0.15:
            # A well-formed reply now and then, so some also get applied.
            return reply(to=to, sender="x@example.com", first_line=rng.choice(["pass", "bid 3", "roll"])), valid
        content_type, body = self.body()
        headers = self.headers(to) + [content_type]
        newline = rng.choice(["\r\n", "\n", "\r\n", "\r"])
        raw = newline.join(headers) + newline + newline + body
        if rng.random() < 0.05:
            raw += "Z" * rng.randrange(1_000_000, 1_100_000)
        return raw, valid
