"""Shared fixtures: the default deck, loaded and compiled once per session."""

from pathlib import Path

import pytest

import sim.play  # noqa: F401 (binds the bots to sim.port, for tests that call the rules' kernels)
from sim.cards import load_deck
from sim.deck_arrays import compile_deck

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CARDS = ROOT / "cards.yaml"


@pytest.fixture(scope="session")
def default_deck():
    return load_deck(DEFAULT_CARDS)


@pytest.fixture(scope="session")
def default_arrays(default_deck):
    return compile_deck(default_deck)


@pytest.fixture(scope="session")
def default_text():
    return DEFAULT_CARDS.read_text(encoding="utf-8")
