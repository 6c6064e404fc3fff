"""Bot specifications as designers write them: ``NAME[:key=value,...]``, or
``FILE.py:NAME[:key=value,...]`` for a bot written in its own file (:mod:`sim.bots.user`).

``greedy``, ``greedy:w_points=2,draw_below=4``, ``random:never=harry_du_bois``,
``greedy:always=kim_kitsuragi``, ``mybots.py:careful:caution=2``. Keys are the bot's
numeric parameters (``POLICY_PARAMS``, or the user bot's ``params``) and the
restricted-play keys ``never`` and ``always`` (an ally id of the deck,
:mod:`sim.bots.restrict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.bots.ids import USER, top_rung
from sim.bots.policy import POLICY_IDS, POLICY_LIMITS, POLICY_PARAMS
from sim.bots.rungs import COLD_COMPILE_SECONDS, RUNG_NAMES
from sim.bots.table import BY_ID
from sim.bots.user import load_bot
from sim.cards import unknown_id
from sim.state import (
    BOT_ADDRESS,
    BOT_COLUMNS,
    BOT_POLICY,
    BOT_RESTRICTED,
    BOT_RESTRICTION,
    EMPTY,
    MAX_BOT_PARAMS,
    MAX_PLAYERS,
    RESTRICT_ALWAYS,
    RESTRICT_NEVER,
    RESTRICT_NONE,
)

RESTRICTIONS = {"never": RESTRICT_NEVER, "always": RESTRICT_ALWAYS}


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot: its policy, parameter values (in ``POLICY_PARAMS`` order) and
    restriction; ``label`` is the text it was parsed from; ``source`` the file of a
    user bot (then ``policy`` is the bot's name in it); ``keys`` the parameters' names."""

    label: str
    policy: str
    params: tuple[float, ...] = ()
    restricted: int = int(EMPTY)
    restriction: int = RESTRICT_NONE
    source: str = ""
    keys: tuple[str, ...] = ()

    @property
    def settings(self) -> dict[str, float]:
        """Every parameter's value, the defaults filled in: what the label meant when
        the bot was parsed (a run's manifest records it, :mod:`sim.run.runner`)."""
        return dict(zip(self.keys, self.params))


def parse_bot(text: str, ally_ids: Sequence[str] = ()) -> BotSpec:
    """Parse ``NAME[:key=value,...]``; ``ally_ids`` (the deck's, in order) resolve
    ``never=``/``always=``.

    Raises
    ------
    ValueError
        Naming the unknown bot, parameter, value or ally, and what is valid.
    """
    source = ""
    if ".py:" in text:
        source, _, text_rest = text.strip().partition(".py:")
        source += ".py"
        name, _, rest = text_rest.partition(":")
        defaults = load_bot(source, name).params
    else:
        name, _, rest = text.strip().partition(":")
        if name not in POLICY_IDS:
            raise ValueError(f"unknown bot {name!r}; valid: {', '.join(POLICY_IDS)}, or FILE.py:NAME for your own")
        defaults = POLICY_PARAMS[name]
    values = dict(defaults)
    restricted, restriction = int(EMPTY), RESTRICT_NONE
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"bot {text!r}: {item!r} is not key=value")
        if key in RESTRICTIONS:
            if value not in ally_ids:
                raise ValueError(f"bot {text!r}: {unknown_id('ally', value, list(ally_ids), 'the deck')}")
            restricted, restriction = list(ally_ids).index(value), RESTRICTIONS[key]
        elif key in defaults:
            try:
                values[key] = float(value)
            except ValueError:
                raise ValueError(f"bot {text!r}: {key} must be a number, got {value!r}") from None
            _check_limit(text, key, values[key], POLICY_LIMITS.get(name, {}).get(key))
        else:
            valid = ", ".join([*defaults, *RESTRICTIONS])
            raise ValueError(f"bot {text!r}: unknown parameter {key!r}; valid for {name}: {valid}")
    return BotSpec(text.strip(), name, tuple(values.values()), restricted, restriction, source, tuple(values))


def _check_limit(text: str, key: str, value: float, limit: tuple[float, float, bool] | None) -> None:
    """Raise ValueError naming the parameter and its valid range when ``value`` is outside ``limit``."""
    if limit is None:
        return
    low, high, whole = limit
    if not low <= value <= high or (whole and value != int(value)):
        kind = "a whole number" if whole else "a number"
        raise ValueError(f"bot {text!r}: {key} must be {kind} from {low:g} to {high:g}, got {value:g}")


def policy_id(spec: BotSpec) -> int:
    """The policy id of ``spec`` (:mod:`sim.bots.ids`): ``USER`` for a bot from a file."""
    return USER if spec.source else POLICY_IDS[spec.policy]


def compile_estimate(specs: Sequence[BotSpec]) -> tuple[str, float]:
    """The rung the engine is compiled for when ``specs`` are seated
    (:func:`sim.bots.ids.top_rung`) and its first compilation's seconds on a 2-core
    machine (:data:`sim.bots.rungs.COLD_COMPILE_SECONDS`)."""
    name = RUNG_NAMES[top_rung(policy_id(spec) for spec in specs)]
    return name, COLD_COMPILE_SECONDS[name]


def bot_tables(specs: Sequence[BotSpec]) -> tuple[np.ndarray, np.ndarray]:
    """The ``State.bots`` (int64) and ``State.bot_params`` (float64) rows of ``specs``.
    ``BOT_ADDRESS`` holds a user bot's compiled function, or a built-in bot's C
    callback (the ``search`` bot's penalty search, compiled or loaded from numba's
    cache at its first call in a process)."""
    bots = np.zeros((MAX_PLAYERS, BOT_COLUMNS), np.int64)
    params = np.zeros((MAX_PLAYERS, MAX_BOT_PARAMS), np.float64)
    for b, spec in enumerate(specs):
        bots[b, BOT_POLICY] = policy_id(spec)
        if spec.source:
            bots[b, BOT_ADDRESS] = load_bot(spec.source, spec.policy).address
        else:
            callback = BY_ID[POLICY_IDS[spec.policy]].callback_address
            if callback is not None:  # the search bot's penalty search (sim.bots.penalty_search)
                bots[b, BOT_ADDRESS] = callback()
        bots[b, BOT_RESTRICTED] = spec.restricted
        bots[b, BOT_RESTRICTION] = spec.restriction
        params[b, : len(spec.params)] = spec.params
    return bots, params
