"""The bots' own memory: the arrays of a state's bot-memory part that the seated bots
ask for, allocated by the run, not by the state.

:func:`sim.state.new_state` leaves the search bot's memory empty, so a run of fast
bots carries none of it. A policy that keeps memory between its decisions names a
``memory`` hook in the policy table (:class:`sim.bots.table.Policy`): given the deck
and a bot row's parameters, the arrays it needs by field name. :func:`with_bot_memory`
gives a state the largest of each asked for by the bots of its table.
"""

from __future__ import annotations

import numpy as np

from sim.bots.table import BY_ID
from sim.deck_arrays import DeckArrays
from sim.state import BOT_POLICY, State


def with_bot_memory(st: State, deck: DeckArrays) -> State:
    """``st`` with the bot memory that the bots of its table ask for (module
    docstring): a field asked for by several rows gets the largest array, a field
    asked for by none keeps ``st``'s. Call it after the bots table is filled and
    before :func:`sim.state.new_twin`, which shares the memory.

    Returns
    -------
    State
        ``st`` itself when no bot asks for memory, else a copy sharing every other
        array with ``st``.
    """
    wanted: dict[str, np.ndarray] = {}
    for row, policy_id in enumerate(st.bots[:, BOT_POLICY]):
        hook = BY_ID[int(policy_id)].memory
        for name, array in (hook(deck, st.bot_params[row]) if hook is not None else {}).items():
            if name not in wanted or array.size > wanted[name].size:
                wanted[name] = array
    return st._replace(**wanted) if wanted else st
