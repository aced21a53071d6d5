"""The only code that changes a game (DESIGN.md, "Layers")."""
