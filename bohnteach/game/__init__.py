"""The game core: cards, rule sets, state, actions, the engine, the rule catalogue and the game record.

Imports nothing above it and no third-party package."""
