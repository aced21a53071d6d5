"""A bot that knows nothing of the server but its served OpenAPI document.

It finds its operations by what the document says of them: the one whose
answer is an event stream, and the one the view's link 'MakeTheDecision'
leads to. It builds each decision from that link: the link's request body
names, as JSON pointers into the view, where the legal decisions and the
version to send are; the bot takes a random one of those decisions where
the link takes the first. The Idempotency-Key header is the decision
operation's header parameter. Every answer's status must be one the
document lists for its operation, and every body (each event's data too)
must fit the schema the document gives it. The standard library and
jsonschema only: no Django, nothing of the server's code."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator


class DocumentBroken(AssertionError):
    """An answer the document does not describe."""


def pointer(document: object, path: str) -> object:
    """The value a JSON pointer (RFC 6901) names."""
    for part in path.lstrip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        document = document[int(part)] if isinstance(document, list) else document[part]  # type: ignore[index]
    return document


class DocBot:
    def __init__(self, base: str, secret: str, seed: int = 1):
        self.base = base.rstrip("/")
        self.secret = secret
        self.rng = random.Random(seed)
        with urllib.request.urlopen(f"{self.base}/openapi.json", timeout=30) as answer:
            self.document = json.load(answer)
        self.operations = {
            operation["operationId"]: (method.upper(), path, operation)
            for path, methods in self.document["paths"].items()
            for method, operation in methods.items()
        }
        self.stream_operation = next(
            name for name, (_m, _p, operation) in self.operations.items()
            if any("text/event-stream" in answer.get("content", {}) for answer in operation["responses"].values())
        )
        view_link = self._view_operation()[1]
        self.decide_link = view_link
        self.key_header = next(
            parameter["name"] for parameter in self.operations[view_link["operationId"]][2].get("parameters", [])
            if parameter["in"] == "header"
        )
        self.answers_checked = 0

    def _view_operation(self) -> tuple[str, dict]:
        """The operation whose 200 answer links to a decision with a request
        body built from the answer, and that link."""
        for name, (_method, _path, operation) in self.operations.items():
            for link in operation["responses"].get("200", {}).get("links", {}).values():
                if "requestBody" in link:
                    return name, link
        raise DocumentBroken("no link leads from a view to a decision")

    # ---- checking answers against the document -----------------------------------

    def _schema(self, schema: dict) -> Draft202012Validator:
        return Draft202012Validator({**schema, "components": self.document["components"]})

    def check(self, operation_id: str, status: int, body: object | None, media: str = "application/json") -> None:
        answers = self.operations[operation_id][2]["responses"]
        if str(status) not in answers:
            raise DocumentBroken(f"{operation_id} answered {status}, which the document does not list")
        content = answers[str(status)].get("content")
        if content is None:
            if body not in (None, b""):
                raise DocumentBroken(f"{operation_id} {status} has a body the document does not give it")
            self.answers_checked += 1
            return
        errors = list(self._schema(content[media]["schema"]).iter_errors(body))
        if errors:
            raise DocumentBroken(f"{operation_id} {status}: {errors[0].message}")
        self.answers_checked += 1

    def check_event(self, event: dict) -> dict:
        """An event of the stream against the document's event schema, its
        data against the schema its contentSchema names; the data."""
        schema = self.operations[self.stream_operation][2]["responses"]["200"]["content"]["text/event-stream"]["schema"]
        errors = list(self._schema(schema).iter_errors(event))
        data = json.loads(event["data"])
        errors += list(self._schema(schema["properties"]["data"]["contentSchema"]).iter_errors(data))
        if errors:
            raise DocumentBroken(f"an event: {errors[0].message}")
        self.answers_checked += 1
        return data

    # ---- HTTP ---------------------------------------------------------------------

    def call(self, operation_id: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict, Any]:
        method, path, _operation = self.operations[operation_id]
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.secret}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                status, answer_headers, raw = answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as refusal:
            status, answer_headers, raw = refusal.code, dict(refusal.headers), refusal.read()
        parsed = json.loads(raw) if raw else None
        self.check(operation_id, status, parsed)
        return status, answer_headers, parsed

    def events(self, after: str | None = None) -> Iterator[tuple[str, dict]]:
        """The stream's events, checked, as (id, data), until it ends."""
        _method, path, _operation = self.operations[self.stream_operation]
        request = urllib.request.Request(self.base + path)
        request.add_header("Authorization", f"Bearer {self.secret}")
        if after is not None:
            request.add_header("Last-Event-ID", after)
        with urllib.request.urlopen(request, timeout=120) as stream:
            fields: dict = {}
            for raw in stream:
                line = raw.decode().rstrip("\r\n")
                if line.startswith(":"):
                    continue
                if line:
                    name, _colon, value = line.partition(":")
                    value = value.removeprefix(" ")
                    fields[name] = int(value) if name == "retry" else value
                    continue
                if "data" in fields:
                    yield fields["id"], self.check_event(fields)
                fields = {}

    # ---- deciding -----------------------------------------------------------------

    def decision_for(self, view: dict) -> dict | None:
        """The request body the document's link builds from ``view``, with a
        random legal decision for the first; None when there is none to make."""
        body = {}
        for name, expression in self.decide_link["requestBody"].items():
            where = expression.removeprefix("$response.body#")
            try:
                if where.rsplit("/", 1)[-1].isdigit():
                    choices = pointer(view, where.rsplit("/", 1)[0])
                    if not choices:
                        return None
                    body[name] = self.rng.choice(choices)  # type: ignore[arg-type]
                else:
                    body[name] = pointer(view, where)
            except (KeyError, IndexError, TypeError):
                return None  # no decision pending: the pointer leads nowhere
        return body

    def send(self, body: dict, key: str | None = None) -> tuple[int, dict, Any]:
        return self.call(self.decide_link["operationId"], body, {self.key_header: key or str(uuid.uuid4())})
