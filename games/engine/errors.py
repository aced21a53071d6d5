"""The engine's two ways of saying no."""


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow in this state."""


class NotationError(EngineError):
    """Text that is not an action at all."""
