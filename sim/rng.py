"""Counter-based random streams for the compiled engine.

Each game owns ``N_STREAMS`` independent 64-bit streams, held in a ``uint64`` array
and advanced in place:

* ``DEAL`` — the shuffles of setup (R3) and every reshuffle of the statue discard (R4.5);
* ``DICE`` — the first-player roll (R2.2), the morale dice (R8.2) and the tie dice (R9.3);
* ``BOT`` — every random choice a bot makes;
* ``SEATS`` — the seat order of the run's bots, when shuffled (``R_SHUFFLE_SEATS``).

Keeping the bots on their own stream means the same game seed gives the same deal
and dice whatever the bots decide (common random numbers, DESIGN.md "Randomness").

The generator is SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom
number generators", OOPSLA 2014), chosen because a stream is one integer of state
that can live in a numpy array inside a kernel; numpy's ``Generator`` objects cannot
be created per game inside nopython code at this speed. The per-run keys come from
``numpy.random.SeedSequence`` (see :func:`stream_keys`), and game ``g``'s streams are
keyed by ``(key, g)`` only, so a game's randomness does not depend on chunking or on
the number of workers.
"""

from __future__ import annotations

import numpy as np

from sim._numba import hot_kernel, kernel

DEAL = np.int64(0)  # numpy ints: see sim/decisions.py on literal types
DICE = np.int64(1)
BOT = np.int64(2)
SEATS = np.int64(3)
N_STREAMS = 4
FACES = np.int64(6)  # a die's faces (a numpy int: see sim/decisions.py on literal types)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def stream_keys(root_seed: int) -> np.ndarray:
    """The run's stream keys, ``uint64 (N_STREAMS,)``, from ``SeedSequence(root_seed)``."""
    return np.random.SeedSequence(root_seed).generate_state(N_STREAMS, dtype=np.uint64)


@hot_kernel
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@kernel
def seed_game(keys, game_index, out):
    """Write game ``game_index``'s stream states into ``out`` (``uint64 (N_STREAMS,)``)."""
    for s in range(N_STREAMS):
        out[s] = _mix(keys[s] ^ _mix(np.uint64(game_index) * _GOLDEN + np.uint64(s)))


@hot_kernel
def next_u64(streams, s):
    """Advance stream ``s`` and return its next 64-bit output (SplitMix64)."""
    streams[s] += _GOLDEN
    return _mix(streams[s])


@hot_kernel
def _scale(u, n):
    """A uniform integer in ``[0, n)`` from the 64-bit output ``u`` (bias below 2**-53):
    ``floor(x * 2**-53 * n)`` for the top 53 bits ``x``. Computed as ``x * (n * 2**-53)``,
    which rounds the same (scaling by a power of two is exact), with one multiply
    after ``u`` instead of two."""
    return int((u >> np.uint64(11)) * (n * _TO_UNIT))


@hot_kernel
def below(streams, s, n):
    """A uniform integer in ``[0, n)`` from stream ``s`` (bias below 2**-53)."""
    return _scale(next_u64(streams, s), n)


@hot_kernel
def roll_die(streams):
    """One fair six-sided die, 1-6, from the DICE stream."""
    return 1 + below(streams, DICE, FACES)


@kernel
def shuffle(streams, s, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place, drawing from stream ``s``: the
    draws of :func:`below`, with the stream's state kept in a register (a store to
    ``arr`` might otherwise change ``streams``, for all the compiler knows)."""
    state = streams[s]
    for i in range(n - 1, 0, -1):
        state += _GOLDEN
        j = _scale(_mix(state), i + 1)
        arr[i], arr[j] = arr[j], arr[i]
    streams[s] = state
