"""The policy ``scripted``: it replays a hand-written list of decisions in tests that set
``st.script`` and ``st.bots`` themselves; users cannot name it."""

from sim._numba import kernel
from sim.state import SCRIPT_N, SCRIPT_POS


@kernel
def scripted_choose(st):
    """The next option index from ``st.script``, in order.

    Raises
    ------
    RuntimeError
        When the script has no entry left.
    """
    pos = st.g[SCRIPT_POS]
    if pos >= st.g[SCRIPT_N]:
        raise RuntimeError("the scripted policy ran out of choices")
    st.g[SCRIPT_POS] = pos + 1
    return st.script[pos]
