"""Editions that plug into the game core (one module each): Ladybohn."""
