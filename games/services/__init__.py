"""The only code that changes a game (docs/architecture.md#layers)."""
