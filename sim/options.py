"""Rule options a run can switch (docs/RULES.md readings named ``opt_...``) and run switches."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from sim.state import (
    MAX_TURN_CAP,
    R_DEBUG,
    R_DOUBLE_ANY_SYMBOL,
    R_EXTRA_PLAY_EXISTING,
    R_ONE_SPECIAL_CROWN,
    R_SHUFFLE_SEATS,
    R_TRACE,
    R_TURN_CAP,
    RULES_LEN,
)

READINGS = ("double_any_symbol", "one_special_crown_per_squad", "extra_play_existing_squad")


@dataclass(frozen=True)
class RuleOptions:
    """Rule options and switches of a run.

    Attributes
    ----------
    double_any_symbol : bool
        ``opt_double_any_symbol`` (A2 Reading). False (default, Spanish text): A2
        doubles a symbol that *another* card of the squad has. True (Russian text):
        any symbol already in the squad, A2's own included.
    one_special_crown_per_squad : bool
        ``opt_one_special_crown_per_squad`` (A8 Reading). False (default): each A8
        card of the squad gives its own extra crown. True: the squad has one extra
        crown however many A8 cards it holds.
    extra_play_existing_squad : bool
        ``opt_extra_play_existing_squad`` (A4 Reading). False (default): A4's extra
        card may go into any squad or a new one. True: into an existing squad only.
    turn_cap : int
        Turns (stuck turns included) after which a game stops as truncated (R4
        Reading); default 1,000, at most ``MAX_TURN_CAP`` (turns are stored as int16).
    debug : bool
        After every turn, assert that every card is in exactly one zone
        (:mod:`sim.rules.zones`). Every bot's choice is checked in any case
        (:func:`sim.bots.policy.decide`).
    shuffle_seats : bool
        Deal the run's bots to the seats in a random order in each game (SEATS
        stream), so that a bot's results are not tied to who plays after whom. The
        first player is random anyway (R2.2).
    """

    double_any_symbol: bool = False
    one_special_crown_per_squad: bool = False
    extra_play_existing_squad: bool = False
    turn_cap: int = 1000
    debug: bool = False
    shuffle_seats: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.turn_cap <= MAX_TURN_CAP:
            raise ValueError(f"turn_cap must be 1 to {MAX_TURN_CAP} turns, got {self.turn_cap}")

    def to_array(self, trace: bool = False) -> np.ndarray:
        """The ``int64 (RULES_LEN,)`` array the kernels read (layout: :mod:`sim.state`)."""
        rules = np.zeros(RULES_LEN, np.int64)
        rules[R_DOUBLE_ANY_SYMBOL] = self.double_any_symbol
        rules[R_ONE_SPECIAL_CROWN] = self.one_special_crown_per_squad
        rules[R_EXTRA_PLAY_EXISTING] = self.extra_play_existing_squad
        rules[R_TURN_CAP] = self.turn_cap
        rules[R_DEBUG] = self.debug
        rules[R_TRACE] = trace
        rules[R_SHUFFLE_SEATS] = self.shuffle_seats
        return rules

    def as_dict(self) -> dict:
        return asdict(self)

    def readings(self) -> dict[str, bool]:
        """The rule options proper (docs/RULES.md readings), by their ``opt_...`` names."""
        return {f"opt_{name}": getattr(self, name) for name in READINGS}
