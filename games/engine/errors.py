"""The engine's two ways of saying no.

Messages are English templates with named values, marked with gettext_noop so
that Django's makemessages collects them; the web layer translates the
template and then fills in the values (the engine itself knows no Django)."""

from __future__ import annotations

from collections.abc import Callable

# Values under these names are colour codes ("colours": a tuple of them): a
# person reads them as colour names in their own language, not as codes.
COLOUR_VALUES = ("colour", "colours")


def gettext_noop(message: str) -> str:
    return message


def _filled(template: str, values: dict[str, object]) -> str:
    if not values:
        return template
    return template % {
        key: ", ".join(map(str, value)) if isinstance(value, tuple) else value for key, value in values.items()
    }


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, template: str, **values: object) -> None:
        self.template = template
        self.values = values
        super().__init__(_filled(template, values))

    def translated(self, gettext: Callable[[str], str], colour_name: Callable[[str], str] | None = None) -> str:
        """The message in the reader's language: ``gettext`` translates the
        template, and ``colour_name`` (if given) names each colour in it."""
        values = dict(self.values)
        if colour_name is not None:
            for key in COLOUR_VALUES:
                value = values.get(key)
                if isinstance(value, str):
                    values[key] = colour_name(value)
                elif isinstance(value, tuple):
                    values[key] = tuple(colour_name(str(item)) for item in value)
        return _filled(gettext(self.template), values)


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow in this state."""


class NotationError(EngineError):
    """Text that is not an action at all."""
