"""Echoes of Revachol simulator: card data, rules engine and batch runner."""

__version__ = "0.1.0"
