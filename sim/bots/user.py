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
    What the player may see (a view of the state with the :data:`VISIBLE` fields only,
    read-only): ``options`` (the legal options
    of the decision, layouts in :mod:`sim.decisions`), ``own_hand[:hand_n[seat]]``
    (``EMPTY`` after them),
    ``hand_n`` (every seat's hand size), the squads of every seat (``squad_n``,
    ``squad_size``, ``squad_cards``, ``squad_symbols``), the task ``row`` and the
    morale ``track``, every seat's completed tasks (``done``, ``done_n``) and
    received allies (``received_n``), the counters ``g`` (deck and discard sizes at
    ``sim.state.STATUE_N`` etc., the turn, the active seat), and ``bot_params`` /
    ``seat_bot`` for its parameters (use :func:`parameter`). Other players' hands,
    the order of the decks and the deal and dice streams are not readable: using
    them is a compile error.
``deck``
    The card data (:mod:`sim.deck_arrays`), all public, read-only.
``seat``, ``kind``, ``n_options``
    The deciding seat, the decision kind (``sim.decisions.D_*``), the option count.

It returns an option index in ``[0, n_options)``. Randomness comes from
:func:`random_below`, on the bot's own stream.

The sandbox is the interface, checked by the compiler and one comparison:

* The observation's arrays are typed read-only (numba's ``readonly`` arrays, see
  :class:`sim._numba.ViewType`), so ``obs.done_n[1] = 0``, ``obs.row.fill(0)`` or a
  write through a slice or a called function is a compile error when the bot file is
  loaded; this costs nothing at run time and, unlike an inspection of the bot's
  bytecode, follows aliases and helper functions, because it is the type checker.
* The bot is compiled with ``boundscheck=True``: an index past an array's end raises
  ``IndexError``. The C callback that :func:`bot` compiles around the bot catches
  that, or any other exception of the bot, and returns :data:`RAISED` (numba cannot
  bind the exception, so its text is lost; a bot returning ``RAISED`` itself is
  reported as raising). Copies of the observation, the other way to protect the
  state, would cost a copy of every squad at every decision.
* The engine checks every returned index (:func:`sim.bots.policy.decide`); an index
  outside ``[0, n_options)``, or :data:`RAISED`, stops the run with
  :class:`sim.play.BadChoiceError` naming the bot file, the bot, the decision kind
  and the index.
* The answer crosses into the engine as an integer only: a Python ``int`` or a numpy
  integer. A bot that returns ``None`` at a decision, or whose answers numba types
  as a bool, a float, a string or anything else, stops the run at that decision, with
  the same error naming what it returned (:func:`answer_code`), instead of playing a
  rule nobody chose (a float cut to an integer, ``None`` read as 0).
* Importing the bot file runs its top-level code; an exception there, ``sys.exit``
  included, is one :class:`ValueError` naming the file.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

from numba import cfunc, njit, typeof, types
from numba.extending import intrinsic

from sim._numba import ViewType, call_c, kernel, view_field
from sim.bots.observation import BOT_STREAM
from sim.rng import below
from sim.state import RAISED

VISIBLE = (
    "options", "own_hand", "hand_n", "squad_n", "squad_size", "squad_cards", "squad_symbols", "row", "track",
    "done", "done_n", "received_n", "g", "bot_params", "seat_bot",
)  # fmt: skip


@intrinsic
def observe(typingctx, state):
    """The observation of a state view or a seat view: the same pointer, only the
    :data:`VISIBLE` fields readable."""
    if not isinstance(state, ViewType):
        return None

    def codegen(context, builder, signature, args):
        return args[0]

    return ViewType(state.ref_type, VISIBLE)(state), codegen


@intrinsic
def _bot_stream(typingctx, obs):
    """``State.bot_stream`` of an observation, writable: only :func:`random_below`
    draws from it (the bot sees no stream)."""
    if not isinstance(obs, ViewType):
        return None

    def codegen(context, builder, signature, args):
        return view_field(context, builder, signature.args[0], args[0], "bot_stream")

    return obs.ref_type.field_dict["bot_stream"](obs), codegen


@njit
def random_below(obs, n):
    """A uniform integer in ``[0, n)`` from the deciding bot's stream."""
    return below(_bot_stream(obs), BOT_STREAM, n)


@njit
def parameter(obs, seat, index):
    """Parameter ``index`` (in the order of the bot's ``params``) of the seat's bot."""
    return obs.bot_params[obs.seat_bot[seat], index]


@functools.cache
def view_types() -> tuple[ViewType, ViewType]:
    """The numba types of a state's view and of a deck's view (built from a zero-size
    deck: every deck's arrays have the same types), for the signature of a C callback
    that kernels call by address (a user bot; the search bot's penalty search,
    :mod:`sim.bots.penalty_search`)."""
    from sim.cards import Deck
    from sim.deck_arrays import compile_deck
    from sim.options import RuleOptions
    from sim.state import kernel_state, new_state

    empty = compile_deck(Deck(format=1, allies=[], tasks=[], morale=[]))
    return typeof(kernel_state(new_state(empty, RuleOptions().to_array()))), typeof(empty.kernel_ref())


@functools.cache
def signature():
    """The compiled signature of a user bot (:func:`view_types`, narrowed to what the
    player sees)."""
    state_type, deck_type = view_types()
    return types.int64(ViewType(state_type.ref_type, VISIBLE),
                       ViewType(deck_type.ref_type, tuple(deck_type.ref_type.field_dict)),
                       types.int64, types.int64, types.int64)  # fmt: skip


@dataclass
class UserBot:
    """A compiled user bot: its name, default parameters and machine address."""

    name: str
    params: dict[str, float]
    address: int
    compiled: object


def bot(params: dict[str, float] | None = None):
    """Decorator: compile ``func`` as a user bot with these parameters and defaults,
    with bounds checks, inside a C callback that returns :data:`RAISED` when it raises.

    Raises
    ------
    numba.core.errors.TypingError
        When the function reads something its player cannot see, writes to its
        observation, or has the wrong signature.
    """

    def compile_bot(func) -> UserBot:
        checked = njit(boundscheck=True)(func)
        checked.compile(signature().args)
        not_an_index = answer_code(checked.nopython_signatures[0].return_type)

        def guarded(obs, deck, seat, kind, n_options):
            try:
                answer = checked(obs, deck, seat, kind, n_options)
            except Exception:  # numba cannot bind the exception: report that it happened
                return RAISED
            if answer is None:
                return RETURNED_NONE
            return answer

        def refused(obs, deck, seat, kind, n_options):
            return not_an_index

        compiled = cfunc(signature())(guarded if not_an_index is None else refused)
        return UserBot(func.__name__, dict(params or {}), compiled.address, compiled)

    return compile_bot


# What a bot's C callback returns in place of an answer that is not an option index: the
# values just above RAISED, which no index in [0, n_options) can be.
RETURNED_NONE, RETURNED_BOOL, RETURNED_FLOAT, RETURNED_TEXT, RETURNED_OTHER = range(RAISED + 1, RAISED + 6)
NOT_AN_INDEX = {RETURNED_NONE: "None", RETURNED_BOOL: "a bool", RETURNED_FLOAT: "a float",
                RETURNED_TEXT: "a string", RETURNED_OTHER: "no integer"}  # fmt: skip
"""Each code, and what the bot returned, in the words of sim.play.bad_choice_message."""


def answer_code(returned: types.Type) -> int | None:
    """None when a bot whose compiled return type is ``returned`` answers with an
    integer (a Python ``int`` or a numpy integer; an index that may be None is checked
    at each answer, :data:`RETURNED_NONE`); otherwise the code its callback returns at
    its first decision, so that the run ends naming what it returned. numba types a
    function once for all its ``return`` statements: one float among them makes every
    answer a float, as ``1 + 0.5`` does in Python."""
    inner = returned.type if isinstance(returned, types.Optional) else returned
    if isinstance(inner, types.Integer):
        return None
    if isinstance(returned, types.NoneType):
        return RETURNED_NONE
    if isinstance(inner, types.Boolean):
        return RETURNED_BOOL
    if isinstance(inner, types.Float):
        return RETURNED_FLOAT
    if isinstance(inner, (types.UnicodeType, types.StringLiteral, types.CharSeq, types.UnicodeCharSeq)):
        return RETURNED_TEXT
    return RETURNED_OTHER


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
    except (Exception, SystemExit) as exc:  # the user's code: report any failure, exit included, as one line
        raise ValueError(f"bot file {path}: {type(exc).__name__}: {_error_detail(exc, file.name)}") from exc
    found = getattr(module, name, None)
    if not isinstance(found, UserBot):
        bots = [k for k, v in vars(module).items() if isinstance(v, UserBot)]
        raise ValueError(f"{path} has no bot {name!r} made with @bot; bots there: {', '.join(bots) or 'none'}")
    return found


ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")
_NOT_A_REASON = ("File ", "During:", "<source", "def ", "^", "- Resolution failure", "Enable logging")
"""Lines of numba's message that say where or when, not what could not be typed."""


def _error_detail(exc: BaseException, file_name: str) -> str:
    """The line of a bot file's import error that says what is wrong."""
    if isinstance(exc, SystemExit):
        return f"the file calls sys.exit({exc.code!r}) when imported; a bot file only defines bots"
    text = ANSI_CODE.sub("", str(exc))  # numba colours its messages when colorama is installed
    lines = [line.strip() for line in text.splitlines() if line.strip()] or [""]
    hidden = next((line for line in lines if "Unknown attribute" in line), None)
    if hidden:
        return f"{hidden.split(' of type ')[0]}: a bot sees only {', '.join(VISIBLE)}"
    places = [i for i, line in enumerate(lines) if line.startswith("File ") and file_name in line]
    where = ""
    if places:  # numba quotes the file, the function's first line, the offending line and a caret
        at = places[-1]
        caret = next((i for i in range(at + 1, len(lines)) if set(lines[i]) == {"^"}), at + 2)
        where = f"{lines[at].rstrip(':').split(', ')[-1]}: {lines[min(caret, len(lines)) - 1]}: "
    if any("readonly array" in line for line in lines):
        return f"{where}a bot may not change its observation (obs is read-only)"
    # numba's own reason: the first line after its pipeline's name that is not a location or a stage
    reason = next((line for line in lines[1:] if not line.startswith(_NOT_A_REASON)), lines[0])
    return f"{where}{reason}"


@kernel
def user_choose(obs, deck, seat, kind, n_options, address):
    """Call the user bot at ``address`` with its observation of the seat's view
    ``obs``, whose ``own_hand`` holds the seat's hand (:mod:`sim.bots.observation`)."""
    return call_c(address, observe(obs), deck, seat, kind, n_options)

