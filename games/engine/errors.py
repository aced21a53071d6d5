"""The engine's two ways of saying no.

Messages are English templates with named values, marked with gettext_noop so
that Django's makemessages collects them; the web layer translates the
template and then fills in the values (the engine itself knows no Django)."""

from __future__ import annotations

from collections.abc import Callable


def gettext_noop(message: str) -> str:
    return message


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, template: str, **values: object) -> None:
        self.template = template
        self.values = values
        super().__init__(template % values if values else template)

    def translated(self, gettext: Callable[[str], str]) -> str:
        text = gettext(self.template)
        return text % self.values if self.values else text


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow in this state."""


class NotationError(EngineError):
    """Text that is not an action at all."""
