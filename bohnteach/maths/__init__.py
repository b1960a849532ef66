"""Exact probability, Monte Carlo estimates, bots and whole-game simulation."""
