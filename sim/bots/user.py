"""Bots written by users: compiled functions in their own Python file.

Write a file with one or more bots::

    # mybots.py
    from sim.bots.user import bot, parameter, random_below

    @bot(params={"caution": 1.0})
    def careful(obs, deck, seat, kind, n_options):
        ...                      # return the index of one of the n_options rows
        return 0

and play it by path and name: ``revachol simulate --bot mybots.py:careful`` or
``--bot mybots.py:careful:caution=2``; from Python, ``simulate(..., bots="mybots.py:careful")``.

The function is compiled (numba ``cfunc``) with this fixed signature:

``obs``
    What the player may see (a view of the state with the :data:`VISIBLE` fields only): ``options`` (the legal options
    of the decision, layouts in :mod:`sim.decisions`), ``own_hand[:hand_n[seat]]``,
    ``hand_n`` (every seat's hand size), the squads of every seat (``squad_n``,
    ``squad_size``, ``squad_cards``, ``squad_symbols``), the task ``row`` and the
    morale ``track``, every seat's completed tasks (``done``, ``done_n``) and
    received allies (``received_n``), the counters ``g`` (deck and discard sizes at
    ``sim.state.STATUE_N`` etc., the turn, the active seat), and ``bot_params`` /
    ``seat_bot`` for its parameters (use :func:`parameter`). Other players' hands,
    the order of the decks and the deal and dice streams are not readable: using
    them is a compile error.
``deck``
    The card data (:mod:`sim.deck_arrays`), all public.
``seat``, ``kind``, ``n_options``
    The deciding seat, the decision kind (``sim.decisions.D_*``), the option count.

It returns an option index in ``[0, n_options)``; the engine checks it in debug mode.
Randomness comes from :func:`random_below`, on the bot's own stream.
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import cfunc, njit, typeof, types
from numba.extending import intrinsic

from sim._numba import ViewType, kernel
from sim.rng import below

VISIBLE = (
    "options", "own_hand", "hand_n", "squad_n", "squad_size", "squad_cards", "squad_symbols", "row", "track",
    "done", "done_n", "received_n", "g", "bot_params", "seat_bot", "bot_stream",
)  # fmt: skip


@intrinsic
def observe(typingctx, state):
    """The observation of a state view: the same pointer, only the :data:`VISIBLE`
    fields readable."""
    if not isinstance(state, ViewType):
        return None

    def codegen(context, builder, signature, args):
        return args[0]

    return ViewType(state.ref_type, VISIBLE)(state), codegen


@intrinsic
def call_bot(typingctx, address, obs, deck, seat, kind, n_options):
    """Call the user bot compiled at ``address`` (C ABI of :data:`signature`)."""

    def codegen(context, builder, signature, args):
        argument_types = [context.get_value_type(t) for t in signature.args[1:]]
        function = builder.inttoptr(args[0], ir.FunctionType(ir.IntType(64), argument_types).as_pointer())
        return builder.call(function, args[1:])

    return types.int64(address, obs, deck, seat, kind, n_options), codegen


@njit
def random_below(obs, n):
    """A uniform integer in ``[0, n)`` from the deciding bot's stream."""
    return below(obs.bot_stream, np.int64(0), n)


@njit
def parameter(obs, seat, index):
    """Parameter ``index`` (in the order of the bot's ``params``) of the seat's bot."""
    return obs.bot_params[obs.seat_bot[seat], index]


@functools.cache
def signature():
    """The compiled signature of a user bot (built from a zero-size state's types)."""
    from sim.cards import Deck
    from sim.deck_arrays import compile_deck
    from sim.options import RuleOptions
    from sim.state import kernel_state, new_state

    empty = compile_deck(Deck(format=1, allies=[], tasks=[], morale=[]))
    state_view = kernel_state(new_state(empty, RuleOptions().to_array()))
    return types.int64(ViewType(typeof(state_view).ref_type, VISIBLE), typeof(empty.kernel_ref()), types.int64,
                       types.int64, types.int64)  # fmt: skip


@dataclass
class UserBot:
    """A compiled user bot: its name, default parameters and machine address."""

    name: str
    params: dict[str, float]
    address: int
    compiled: object


def bot(params: dict[str, float] | None = None):
    """Decorator: compile ``func`` as a user bot with these parameters and defaults.

    Raises
    ------
    numba.core.errors.TypingError
        When the function reads something its player cannot see, or has the wrong
        signature.
    """

    def compile_bot(func) -> UserBot:
        compiled = cfunc(signature())(func)
        return UserBot(func.__name__, dict(params or {}), compiled.address, compiled)

    return compile_bot


@functools.cache
def load_bot(path: str, name: str) -> UserBot:
    """The bot ``name`` defined with :func:`bot` in the Python file ``path``.

    Raises
    ------
    ValueError
        When the file cannot be read or imported, or defines no such bot.
    """
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"bot file {path!r} not found")
    module_spec = importlib.util.spec_from_file_location(f"revachol_user_bots_{abs(hash(file.resolve()))}", file)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # the user's code: report any failure as one clear error
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()] or [""]
        hidden = next((line for line in lines if "Unknown attribute" in line), None)
        detail = f"{hidden.split(' of type ')[0]}: a bot sees only {', '.join(VISIBLE)}" if hidden else lines[0]
        raise ValueError(f"bot file {path}: {type(exc).__name__}: {detail}") from None
    found = getattr(module, name, None)
    if not isinstance(found, UserBot):
        bots = [k for k, v in vars(module).items() if isinstance(v, UserBot)]
        raise ValueError(f"{path} has no bot {name!r} made with @bot; bots there: {', '.join(bots) or 'none'}")
    return found


@kernel
def user_choose(st, deck, seat, kind, n_options, address):
    """Copy the seat's hand into its observation and call the user bot at ``address``."""
    for k in range(st.hand_n[seat]):
        st.own_hand[k] = st.hand[seat, k]
    return call_bot(address, observe(st), deck, seat, kind, n_options)

