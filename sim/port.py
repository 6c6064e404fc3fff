"""The port between the rules and the bots: what the game loop and the rules call when
a seat must decide, and nothing else of a bot.

The rules raise each decision (:mod:`sim.decisions`) through :func:`decide`; the game
loop (:func:`sim.engine.play_game`) calls :func:`turn_start` before each turn; the R4.1
play step asks :func:`reads_option_rows` whether to write the rows of a ``D_PLAY``
decision. The bots' policy table (:mod:`sim.bots.table`) implements the three, and
:mod:`sim.bots.policy` binds them here when it is imported (by :mod:`sim.play`, the
Python entry point to a run). This module imports no bot, so no module of the rules,
the state or the game loop does: the bots sit above the rules, and this binding is
the one arrow that runs back up (docs/ARCHITECTURE.md). Kernels call ``port.decide``
and friends as attributes of this module, which numba resolves when it compiles
them, to the bound kernels. As OpenSpiel's ``State.legal_actions``/``apply_action``
or TAG's ``ForwardModel``, the rules never name a bot.
"""

from __future__ import annotations


def _unbound(*args):
    raise RuntimeError("no bots are bound to sim.port: import sim.play (or sim.bots.policy) first")


decide = _unbound
"""``decide(st, deck, seat, kind, n_options) -> int``: the index of the option that the
bot of ``seat`` picks among the ``n_options`` rows of ``st.options`` for a decision
of ``kind`` (:func:`sim.bots.policy.decide`)."""
turn_start = _unbound
"""``turn_start(st, deck)``: the turn-start hook of the active seat's policy
(``search`` plans its turn, in the second state that ``st``'s handle links for its
playouts, :func:`sim.state.kernel_state`)."""
reads_option_rows = _unbound
"""``reads_option_rows(st, seat) -> bool``: whether the bot of ``seat`` reads the rows
of a ``D_PLAY`` decision, or picks from their number alone."""
policy_set = _unbound
"""``policy_set(policy_ids) -> tuple[int, ...]``: the policy set that kernels are
compiled for when a state's bots table names ``policy_ids`` (:mod:`sim.bots.ids`)."""


def bind(**functions) -> None:
    """Bind the bots' implementations of :data:`decide`, :data:`turn_start`,
    :data:`reads_option_rows` and :data:`policy_set`.

    Raises
    ------
    TypeError
        For a name that is not one of the four.
    """
    unknown = set(functions) - {"decide", "turn_start", "reads_option_rows", "policy_set"}
    if unknown:
        raise TypeError(f"sim.port has no {', '.join(sorted(unknown))}")
    globals().update(functions)
