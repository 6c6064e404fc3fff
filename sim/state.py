"""The game state's arrays and their layout (RULES R3-R9).

One :class:`State` holds one game in progress. It is a namedtuple of numpy arrays so
that compiled kernels can read and write it; scalars live in the ``g`` array under
the named indices below. ``P`` is the number of seats allocated (the game uses the
first ``g[N_PLAYERS]``), ``A``, ``M`` and ``T`` are the deck's ally, morale and task
counts (see :mod:`sim.deck_arrays` for card indices).

Zones (every card is in exactly one)
------------------------------------
=====================  ==========================================  ======================
zone                   arrays                                      cards
=====================  ==========================================  ======================
task deck (R3.1)       ``task_deck[:g[TASK_DECK_N]]``, top = last  task ids
task row (R3.1, R6.5)  ``row[0..2]`` = positions 1-3, ``EMPTY``    task ids
completed (R6.3)       ``done[p, :done_n[p]]``                     task ids
permanent discard      ``perm_tasks[:g[PERM_TASKS_N]]``,           task ids,
(R3.4)                 ``perm_morale[:g[PERM_MORALE_N]]``          morale ids
statue deck (R3.3)     ``statue[:g[STATUE_N]]``, top = last        statue indices
statue discard (R3.4)  ``statue_discard[:g[STATUE_DISCARD_N]]``    statue indices
morale track (R7)      ``track[0..2]`` = positions 1-3, ``EMPTY``  morale ids
hand (R3.2)            ``hand[p, :hand_n[p]]``                     ally ids
squads (R5)            ``squad_cards[p, s, :squad_size[p, s]]``    ally ids
                       for ``s < squad_n[p]``, in creation order
received (A1, A6)      ``received[p, :received_n[p]]``             ally ids
=====================  ==========================================  ======================

``squad_symbols[p, s, k]`` is the number of symbol ``k`` (0-5 colours, 6 crown)
shown by squad ``s`` of seat ``p``, kept equal to the sum of its allies' symbols.
``squad_flags[p, s, f]`` counts the squad's allies whose ability acts on completion
(``SF_TOKENS``: A1, A2, A8) or moves them (``SF_RELOCATE``: A7), so that a squad
without them skips the ability work (:mod:`sim.rules.squads`); ``relocators[p]`` is
the sum of seat ``p``'s ``SF_RELOCATE`` counts, so that a seat without an A7 ally in
its squads skips A7's offer at every turn.

Parts, by owner
---------------
Every array of a :class:`State` belongs to one part, named by the tuples below
(a test checks that they cover the fields, each once):

==============  ===========================================  ============================
part            arrays                                       owner, and who reads it
==============  ===========================================  ============================
game            :data:`GAME`: ``g``, the zones, ``streams``,  the rules (R2-R9); a copy of
                the run's ``rules``, ``bots``,                it is a game in progress:
                ``bot_params``, ``seat_bot``                  the search bot plays out from
                                                              one (:data:`copy_game`)
rules scratch   :data:`SCRATCH`: ``options``, the need        the rules, within a turn;
                tables, the cover's flow network, ...         bots read ``options`` and the
                                                              need tables, which the bots'
                                                              dispatch fills by the rules'
                                                              kernel
bot memory      :data:`BOT_MEMORY`: the search tree           the bots (:mod:`sim.bots`):
                (``tree_*``, ``penalty_stats``, empty until   shared by a state and its
                a run seats the bot), ``own_hand``,           twin (:func:`new_twin`)
                ``bot_stream``, ``script``
record          :data:`RECORD`: ``seat_stats``,               the rules write, only the
                ``task_fate``, ``held``, ``leaders``,         record (:mod:`sim.record`,
                ``log``, ...                                  :mod:`sim.lead`) reads
==============  ===========================================  ============================

Each part has its typed view (:data:`game_view`, :data:`scratch_view`,
:data:`memory_view`, :data:`record_view`): the same state, typed to read and write
that part's arrays only, so that a kernel given it cannot touch another part (a
compile error). The game record is written from a game view and a record view
(:func:`sim.record.write_record`), the search bot copies a game in progress from one
game view to another and keeps its tree through a memory view (:mod:`sim.bots.search`).

Of the game part, :data:`HIDDEN` is what no seat sees: the other seats' hands, the
order of the task deck and the statue deck, the statue discard, and the deal and dice
streams. A bot reads the game only through its seat view
(:mod:`sim.bots.observation`): the game part without :data:`HIDDEN`, its own hand
(``own_hand``) and the bot stream, read-only but for its memory.

Sentinels: ``EMPTY`` (-1) marks an empty row or track position and an unused option
field. Seats are 0..n-1 clockwise (R2.2); records are re-indexed by turn order at
the end of a game (:mod:`sim.record`).
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import types
from numba.experimental import structref

from sim import port
from sim._numba import View, fields_copy, view_of
from sim.cards import Ability
from sim.deck_arrays import DeckArrays
from sim.rng import BOT, N_STREAMS
from sim.rundir.schema import TASK_COMPLETED, TASK_FACE_UP, TASK_FAILED, TASK_LOST, TASK_UNREVEALED  # noqa: F401

EMPTY = np.int64(-1)  # a numpy int: see sim/decisions.py on literal types
MAX_PLAYERS = 4  # R2.1
MIN_PLAYERS = 2  # R2.1
HAND_LIMIT = 5  # R4.3
ROW_SIZE = 3  # R3.1: three task positions, and three morale positions under them (R7)
INITIAL_HAND = 3  # R3.2
N_SUBSETS = 1 << ROW_SIZE  # task subsets of the row, bit i = position i + 1 (R6.1)
NEEDS_ROW = 0  # row of State.needs (the empty subset) that keeps the task row it was computed for
STALE = np.int64(-2)  # a task index no row holds: marks State.needs as not computed

# --- g: scalar state, int64 -------------------------------------------------------
N_PLAYERS = 0  # seats in this game
ACTIVE = 1  # seat whose turn it is
FIRST = 2  # first seat (R2.2)
TURN = 3  # turns completed, stuck turns included
STATUE_N = 4
STATUE_DISCARD_N = 5
TASK_DECK_N = 6
TRACK_N = 7  # morale cards on the track (R7)
PERM_TASKS_N = 8
PERM_MORALE_N = 9
STUCK_RUN = 10  # consecutive stuck turns (R4 Reading)
OUTCOME = 11  # one of the OUTCOME_* values below
MORALE_EVENTS = 12
TASKS_COMPLETED = 13
TASKS_FAILED = 14
STUCK_TURNS = 15
FIRST_EVENT_TURN = 16  # turn number (1-based) of the first morale-loss event, 0 if none
WINNER = 17  # seat, EMPTY until scored
TIE_DICE = 18  # 1 when R9.3's dice decided the winner
LOG_N = 19  # rows written to ``log``
SCRIPT_POS = 20  # next entry of ``script`` for the scripted policy
SCRIPT_N = 21  # entries in ``script``
BAD_CHOICE = 22  # 1 once a policy named no offered option; the game stops (sim.bots.policy.refuse_choice)
BAD_SEAT = 23  # the seat that decided
BAD_KIND = 24  # the decision kind (sim.decisions.D_*)
BAD_INDEX = 25  # the index returned (RAISED when a bot's compiled callback raised an error)
BAD_N_OPTIONS = 26  # the options offered
SCORE_STAMP = 27  # completions + morale events + allies received when sim.lead last scored the seats
TURN_ACTION = 28  # the active seat's action this turn, ACTION_PLAY or ACTION_DRAW (sim.decisions)
G_LEN = 29
RAISED = np.iinfo(np.int64).min  # what a C callback (a user bot, the search bot's penalty search) returns when it raised

OUTCOME_RUNNING = 0
OUTCOME_FINISHED = 1  # R9.1
OUTCOME_STALLED = 2  # R4 Reading: n players stuck in a row
OUTCOME_TRUNCATED = 3  # R4 Reading: turn cap reached

# --- seat_stats: per-seat counters, int64 (P, SEAT_STATS) ------------------------------
S_SCORE = 0  # points, R9.2 (written at the end)
S_TASKS_COMPLETED = 1  # tasks this seat completed, including later lost ones
S_TASKS_LOST = 2  # completed tasks discarded by a penalty (R8.3)
S_PEN_SQUAD_ALLY = 3  # penalties suffered, by type (R8.3)
S_PEN_COMPLETED_TASK = 4
S_PEN_HAND_ALLY = 5
S_SAVES = 6  # morale-loss rolls that saved this seat (R8.2)
S_PENALTY_NOTHING = 7  # penalties suffered with no such card to give up (R8.3)
SEAT_STATS = 8

# --- task_fate: per task, int64 (T, 3) -------------------------------------------------
TF_STATUS = 0  # TASK_* below
TF_SEAT = 1  # completing seat, EMPTY otherwise
TF_TURN = 2  # 1-based turn of completion or failure, 0 if neither
# TASK_* (task_fate's status) are the task status codes the record writes to a run
# directory's cards table, defined with that table (sim.rundir.schema).

# --- morale_stats: per morale card, int64 (M, 2) ----------------------------------------
SF_TOKENS = 0  # squad_flags: allies with A1, A2 or A8 (sim.rules.completion)
SF_RELOCATE = 1  # squad_flags: allies with A7 (sim.rules.abilities)
SQUAD_FLAGS = 2

# --- scored: a seat's points when sim.lead.note_leaders last scored it (P, SCORED_LEN) ---
SC_DONE_N = 0  # done_n then
SC_RECEIVED_N = 1  # received_n then
SC_TASKS_LOST = 2  # seat_stats[S_TASKS_LOST] then
SC_POINTS = 3  # the points (R9.2); all EMPTY: not scored in this game
SCORED_LEN = 4

MS_EVENTS = 0  # morale-loss events this card caused (R7.2)
MS_SAVES = 1  # saves rolled against it in those events (R8.2)

# --- ally_stats: per ally, int64 (A, 3) -----------------------------------------------
AS_POINTS = 0  # task points of completions by a squad holding the ally (points)
AS_SWAPPED = 1  # times taken from a squad by A6
AS_LENT = 2  # times its symbol was borrowed by A1

# --- rules: the run's rule options and switches, int64 ---------------------------------
R_DOUBLE_ANY_SYMBOL = 0  # opt_double_any_symbol (A2 Reading), 0 or 1
R_TURN_CAP = 1  # turns before a game is truncated (R4 Reading)
R_DEBUG = 2  # 1: assert the zones after every turn (sim.rules.zones)
R_TRACE = 3  # 1: write the event log
R_SHUFFLE_SEATS = 4  # 1: each game deals the run's bots to the seats in a random order
R_ONE_SPECIAL_CROWN = 5  # opt_one_special_crown_per_squad (A8 Reading), 0 or 1
R_EXTRA_PLAY_EXISTING = 6  # opt_extra_play_existing_squad (A4 Reading), 0 or 1
RULES_LEN = 7

# --- bots: the run's bots, int64 (MAX_PLAYERS, BOT_COLUMNS); row b is bot b ------------
BOT_POLICY = 0  # policy id (sim.bots.policy.POLICY_IDS)
BOT_RESTRICTED = 1  # ally whose play is restricted (restricted play), EMPTY for none
BOT_RESTRICTION = 2  # RESTRICT_* below
BOT_ADDRESS = 3  # machine address of a user bot's compiled function (sim.bots.user), 0 otherwise
BOT_COLUMNS = 4
RESTRICT_NONE = 0
RESTRICT_NEVER = 1  # never play the ally while another play is possible
RESTRICT_ALWAYS = 2  # play the ally whenever it is in hand
MAX_BOT_PARAMS = 48  # numeric parameters per bot (room for three per-player-count blocks of 16), bot_params (MAX_PLAYERS, MAX_BOT_PARAMS)

# --- options: the legal choices of the pending decision, int64 (option_rows(deck), OPTION_WIDTH)
MAX_OPTIONS = 4096  # rows at least; more when the deck needs them (option_rows)
OPTION_WIDTH = 8
FLOW_BASE = 23  # fixed nodes of sim.rules.cover's flow network (flow_nodes)
MAX_LOG = 20000  # event rows of a traced game at first; sim.trace replays with more if they fill
LOG_WIDTH = 6
MAX_SCRIPT = 256
MAX_TURN_CAP = 30_000  # turns a game may last at most (R4 Reading); turns are stored as int16

class State(NamedTuple):
    """All arrays of one game; see the module docstring for the layout.

    Python code reads these arrays; kernels receive :func:`kernel_state`'s handle,
    which holds the same buffers.
    """

    g: np.ndarray  # int64 (G_LEN,)
    rules: np.ndarray  # int64 (RULES_LEN,)
    streams: np.ndarray  # uint64 (N_STREAMS,)
    task_deck: np.ndarray  # int64 (T,)
    row: np.ndarray  # int64 (3,)
    track: np.ndarray  # int64 (3,)
    statue: np.ndarray  # int64 (A + M,)
    statue_discard: np.ndarray  # int64 (A + M,)
    perm_tasks: np.ndarray  # int64 (T,)
    perm_morale: np.ndarray  # int64 (M,)
    hand: np.ndarray  # int64 (P, HAND_LIMIT)
    hand_n: np.ndarray  # int64 (P,)
    squad_n: np.ndarray  # int64 (P,)
    squad_size: np.ndarray  # int64 (P, A)
    squad_cards: np.ndarray  # int64 (P, A, A)
    squad_symbols: np.ndarray  # int64 (P, A, 7)
    squad_flags: np.ndarray  # int64 (P, A, SQUAD_FLAGS): allies with SF_* abilities per squad
    relocators: np.ndarray  # int64 (P,): A7 allies in the seat's squads, all squads together
    done: np.ndarray  # int64 (P, T)
    done_n: np.ndarray  # int64 (P,)
    received: np.ndarray  # int64 (P, A)
    received_n: np.ndarray  # int64 (P,)
    scored: np.ndarray  # int64 (P, SCORED_LEN): each seat's points when sim.lead last scored it, and what they came from
    seat_stats: np.ndarray  # int64 (P, SEAT_STATS)
    held: np.ndarray  # bool (P, A): allies ever in the seat's hand
    played: np.ndarray  # bool (P, A): allies the seat played from hand
    opening: np.ndarray  # bool (P, A): the seat's opening hand, the allies dealt at R3.2
    task_fate: np.ndarray  # int64 (T, 3)
    morale_stats: np.ndarray  # int64 (M, 2)
    ally_stats: np.ndarray  # int64 (A, 3)
    options: np.ndarray  # int64 (option_rows(deck), OPTION_WIDTH)
    log: np.ndarray  # int64 (log_rows or 1, LOG_WIDTH)
    # Scratch space reused by the kernels so that a turn allocates nothing:
    needs: np.ndarray  # int64 (8, 6): colours required by each subset of the row
    special_needs: np.ndarray  # int64 (8, 6): the same, Special Tasks only
    subset_ok: np.ndarray  # bool (8,): the subset's positions all hold a task
    doubles: np.ndarray  # int64 (A,): A2 tokens of one squad
    lenders: np.ndarray  # int64 (A,): A1 lender candidates
    lender_ok: np.ndarray  # bool (A,): whether each may lend next (sim.rules.completion.borrow_options)
    borrows: np.ndarray  # int64 (A, 2): the (borrower, lender) pairs chosen for a completion (A1)
    flow: np.ndarray  # int64 (N, N), N = flow_nodes(deck): residual capacities (sim.rules.cover)
    flow_parent: np.ndarray  # int64 (N,): its search tree
    flow_queue: np.ndarray  # int64 (N,): its search queue
    members: np.ndarray  # int64 (A,): allies of a completing squad
    completed: np.ndarray  # int64 (ROW_SIZE,): the tasks a completion takes, by position
    choice: np.ndarray  # int64 (OPTION_WIDTH,): the option row being carried out
    script: np.ndarray  # int64 (MAX_SCRIPT,): option indices for the scripted policy
    bots: np.ndarray  # int64 (MAX_PLAYERS, BOT_COLUMNS): the run's bots
    bot_params: np.ndarray  # float64 (MAX_PLAYERS, MAX_BOT_PARAMS): their parameters
    seat_bot: np.ndarray  # int64 (MAX_PLAYERS,): the bot (row of ``bots``) of each seat this game
    own_hand: np.ndarray  # int64 (HAND_LIMIT,): the deciding seat's hand, for a user bot's observation
    bot_stream: np.ndarray  # uint64 (1,): a view of streams[BOT], the one stream a user bot may draw from
    pool: np.ndarray  # int64 (A + M,): scratch for dealing a seat's unseen cards again (sim.rules.redeal)
    leaders: np.ndarray  # int8 (MAX_TURN_CAP + 1,): seats with the most points after each turn (sim.lead)
    # The search bot's own memory (sim.bots.search_tree.tree_memory): empty, of length 0
    # along every axis but the last, until a run seats the bot (sim.bots.memory):
    tree_g: np.ndarray  # int64 (TREE_G_LEN,): its tree's scalars
    tree_key: np.ndarray  # int64 (N, KEY_WIDTH): each node's decision kind and option row, N nodes
    tree_child: np.ndarray  # int64 (N, 2): first child, next sibling (EMPTY for none)
    tree_stats: np.ndarray  # float64 (N, 3): visits, reward sum, availability
    tree_path: np.ndarray  # int64 (MAX_TREE_DEPTH,): the nodes of the current iteration
    tree_match: np.ndarray  # int64 (option_rows(deck),): the child matching each offered row
    penalty_stats: np.ndarray  # float64 (option_rows(deck), 2): playouts, wins of each penalty row (sim.bots.penalty_search)


GAME = (
    "g", "rules", "streams", "task_deck", "row", "track", "statue", "statue_discard", "perm_tasks", "perm_morale",
    "hand", "hand_n", "squad_n", "squad_size", "squad_cards", "squad_symbols", "squad_flags", "relocators", "done",
    "done_n", "received", "received_n", "bots", "bot_params", "seat_bot",
)  # fmt: skip
"""The game part: every array the rules read to play (module docstring, "Parts")."""
HIDDEN = ("hand", "task_deck", "statue", "statue_discard", "streams")
"""The game part's arrays that no seat sees (R3.1, R3.2, R3.3, R3.4, R4.2); a seat
sees its own row of ``hand`` as ``own_hand``."""
SCRATCH = (
    "options", "needs", "special_needs", "subset_ok", "doubles", "lenders", "lender_ok", "borrows", "flow",
    "flow_parent", "flow_queue", "members", "completed", "choice", "pool",
)  # fmt: skip
"""The rules' scratch: rewritten before it is read, or kept while the task row stays
as it was (``needs``, ``special_needs``)."""
BOT_MEMORY = (
    "script", "own_hand", "bot_stream", "tree_g", "tree_key", "tree_child", "tree_stats", "tree_path",
    "tree_match", "penalty_stats",
)  # fmt: skip
"""The bots' own arrays (:mod:`sim.bots`)."""
RECORD = (
    "scored", "seat_stats", "held", "played", "opening", "task_fate", "morale_stats", "ally_stats", "leaders", "log",
)  # fmt: skip
"""What the rules and the game loop write for the record only; play never reads it."""
PARTS = {"game": GAME, "rules scratch": SCRATCH, "bot memory": BOT_MEMORY, "record": RECORD}

game_view, scratch_view, memory_view, record_view = (view_of(part, part) for part in PARTS.values())
"""``game_view(st)``, ``scratch_view(st)``, ``memory_view(st)``, ``record_view(st)``:
the typed view of one part of ``st``, which reads and writes that part's arrays
only (:func:`sim._numba.view_of`): a kernel given one cannot touch another part."""

copy_game = fields_copy(GAME)
"""``copy_game(src, dst)``: copy the game part of one state to another (a game in
progress, for the search bot's playouts), built from :data:`GAME`."""


def option_rows(deck: DeckArrays) -> int:
    """Rows of ``State.options`` for ``deck``: ``MAX_OPTIONS``, or more when some
    decision of the deck can list more (the largest of :func:`option_rows_by_kind`)."""
    return max(MAX_OPTIONS, *option_rows_by_kind(deck).values())


def option_rows_by_kind(deck: DeckArrays) -> dict[str, int]:
    """The most option rows each decision kind (:mod:`sim.decisions`) can list for
    ``deck``, a bound that holds in every position.

    With ``A`` allies, ``T`` tasks and ``H = HAND_LIMIT``: a seat's squads hold one
    ally at least (R5.3), so any seat has at most ``A`` squads, and squads of all
    seats hold at most ``A`` allies together.

    ==============  ============================  ================================
    kind            bound                         why
    ==============  ============================  ================================
    ``D_ACTION``    2                             play or draw (R4.1, R4.2)
    ``D_PLAY``,     ``1 + H (A + 1)``             "none" (A4), then each hand card
    ``D_EXTRA_PLAY``                              into each squad or a new one
    ``D_SWAP``      ``1 + floor(A^2 / 4)``        "none", then (victim ally, own
                    with an A6 card, else 0       squad) pairs: ``x`` allies in
                                                  others' squads and ``y`` own squads
                                                  hold distinct allies, ``x + y <= A``
    ``D_RELOCATE``  ``1 + n_A7 (A - 1)``          "none", then each A7 ally to each
                                                  other squad of its owner
    ``D_COMPLETE``  ``7 A + 1``                   "none", then 7 task subsets per
                                                  squad (R6.1)
    ``D_BORROW``    ``n_A1 A``                    (A1 borrower, lender ally) pairs
    ``D_PENALTY``   ``max(A, T, H)``              one card of the seat's squads,
                                                  completed tasks or hand (R8.3)
    ==============  ============================  ================================
    """
    a, t = deck.n_allies, deck.n_tasks
    plays = 1 + HAND_LIMIT * (a + 1)
    return {
        "action": 2,
        "play": plays,
        "swap": 1 + a * a // 4 if _count_ability(deck, Ability.SWAP) else 0,
        "relocate": 1 + _count_ability(deck, Ability.RELOCATE) * max(a - 1, 0),
        "complete": (N_SUBSETS - 1) * a + 1,
        "borrow": _count_ability(deck, Ability.BORROW) * a,
        "penalty": max(a, t, HAND_LIMIT),
    }


def _count_ability(deck: DeckArrays, ability: Ability) -> int:
    return int(np.count_nonzero(deck.ally_ability == int(ability)))


def flow_nodes(deck: DeckArrays) -> int:
    """Nodes of :mod:`sim.rules.cover`'s flow network for ``deck``: the fixed ones, one
    per A2 card (its doubled symbol) and three per A1 card (a lender named by it and
    the lender's two symbols)."""
    return FLOW_BASE + _count_ability(deck, Ability.DOUBLE) + 3 * _count_ability(deck, Ability.BORROW)


def _stale_needs() -> np.ndarray:
    """``State.needs`` or ``State.special_needs``, int64 (8, 6), marked as not
    computed for any row."""
    needs = np.zeros((N_SUBSETS, 6), np.int64)
    needs[NEEDS_ROW, :] = STALE
    return needs


def new_state(deck: DeckArrays, rules: np.ndarray, trace: bool = False, log_rows: int = MAX_LOG) -> State:
    """Allocate a state for ``deck`` with room for ``MAX_PLAYERS`` seats, and for
    ``log_rows`` event rows when ``trace`` is on (the log stops, never overflows, when
    they are full: :mod:`sim.trace` checks ``g[LOG_N]``).

    The arrays are reset by :func:`sim.rules.setup.setup_game` for each game, so one
    state serves a whole batch. The search bot's memory (``tree_*``,
    ``penalty_stats``) is empty: a run sizes it for the bots it seats
    (:func:`sim.bots.memory.with_bot_memory`).
    """
    a, m, t, p = deck.n_allies, deck.n_morale, deck.n_tasks, MAX_PLAYERS
    i8 = np.int64
    rows, nodes = option_rows(deck), flow_nodes(deck)
    streams = np.zeros(N_STREAMS, np.uint64)
    return State(
        g=np.zeros(G_LEN, i8),
        rules=rules.astype(i8).copy(),
        streams=streams,
        task_deck=np.zeros(t, i8),
        row=np.full(ROW_SIZE, EMPTY, i8),
        track=np.full(ROW_SIZE, EMPTY, i8),
        statue=np.zeros(a + m, i8),
        statue_discard=np.zeros(a + m, i8),
        perm_tasks=np.zeros(t, i8),
        perm_morale=np.zeros(max(m, 1), i8),
        hand=np.zeros((p, HAND_LIMIT), i8),
        hand_n=np.zeros(p, i8),
        squad_n=np.zeros(p, i8),
        squad_size=np.zeros((p, a), i8),
        squad_cards=np.zeros((p, a, a), i8),
        squad_symbols=np.zeros((p, a, 7), i8),
        squad_flags=np.zeros((p, a, SQUAD_FLAGS), i8),
        relocators=np.zeros(p, i8),
        done=np.zeros((p, t), i8),
        done_n=np.zeros(p, i8),
        received=np.zeros((p, a), i8),
        received_n=np.zeros(p, i8),
        scored=np.full((p, SCORED_LEN), EMPTY, i8),
        seat_stats=np.zeros((p, SEAT_STATS), i8),
        held=np.zeros((p, a), np.bool_),
        played=np.zeros((p, a), np.bool_),
        opening=np.zeros((p, a), np.bool_),
        task_fate=np.zeros((t, 3), i8),
        morale_stats=np.zeros((max(m, 1), 2), i8),
        ally_stats=np.zeros((a, 3), i8),
        options=np.zeros((rows, OPTION_WIDTH), i8),
        log=np.zeros((log_rows if trace else 1, LOG_WIDTH), i8),
        needs=_stale_needs(),
        special_needs=_stale_needs(),
        subset_ok=np.zeros(8, np.bool_),
        doubles=np.zeros(a, i8),
        lenders=np.zeros(a, i8),
        lender_ok=np.zeros(a, np.bool_),
        borrows=np.zeros((a, 2), i8),
        flow=np.zeros((nodes, nodes), i8),
        flow_parent=np.zeros(nodes, i8),
        flow_queue=np.zeros(nodes, i8),
        members=np.zeros(a, i8),
        completed=np.zeros(ROW_SIZE, i8),
        choice=np.zeros(OPTION_WIDTH, i8),
        script=np.zeros(MAX_SCRIPT, i8),
        bots=np.zeros((p, BOT_COLUMNS), i8),
        bot_params=np.zeros((p, MAX_BOT_PARAMS), np.float64),
        seat_bot=np.arange(p, dtype=i8),
        own_hand=np.zeros(HAND_LIMIT, i8),
        bot_stream=streams[BOT : BOT + 1],
        pool=np.zeros(a + m, i8),
        leaders=np.zeros(MAX_TURN_CAP + 1, np.int8),
        # the search bot's memory: empty until a run seats it (sim.bots.memory)
        tree_g=np.zeros(0, i8),
        tree_key=np.zeros((0, 0), i8),
        tree_child=np.zeros((0, 0), i8),
        tree_stats=np.zeros((0, 0), np.float64),
        tree_path=np.zeros(0, i8),
        tree_match=np.zeros(0, i8),
        penalty_stats=np.zeros((0, 0), np.float64),
    )


def new_twin(st: State, deck: DeckArrays) -> State:
    """A second state for ``deck`` whose bot memory is ``st``'s (the same buffers, but
    ``bot_stream``, which views the twin's own ``streams``): what ``st``'s handle
    links (:func:`kernel_state`) for the search bot's playouts (:mod:`sim.bots.search`),
    which then write the twin's game part, scratch and record, never ``st``'s. Its
    bots table is ``st``'s, so that kernels take its view with the same policy set."""
    twin = new_state(deck, st.rules)
    twin.bots[:], twin.bot_params[:] = st.bots, st.bot_params  # its view's type: the same policy set
    return twin._replace(**{name: getattr(st, name) for name in BOT_MEMORY if name != "bot_stream"})


@structref.register
class StateType(types.StructRef):
    """Numba type of a StructRef over a :class:`State`'s arrays: the layout of
    :func:`kernel_state`'s view (:class:`sim._numba.View`)."""


class StateView(View):
    """A state's view, typed with the policy set of the bots its ``bots`` table names
    when a kernel is called (the bots' ``policy_set``, through :mod:`sim.port`), or
    with the set ``policies`` given: a twin's view keeps its state's set, whatever a
    playout writes to the twin's table."""

    def __init__(self, ref_class, owner, link: View | None = None, policies: tuple[int, ...] | None = None):
        super().__init__(ref_class, owner, link)
        self.fixed = policies

    def policies(self) -> tuple[int, ...]:
        return self.fixed if self.fixed is not None else port.policy_set(self.owner.bots[:, BOT_POLICY])


class LinkedState(State):
    """In plain Python (``NUMBA_DISABLE_JIT=1``), a state's handle that links its
    twin's (``link``), as a compiled view links its twin's view (:func:`kernel_state`)."""

    link: State | None = None


def kernel_state(state: State, twin: State | None = None) -> View | State:
    """The handle that kernels take for ``state``: a view of its buffers (why:
    :mod:`sim._numba`), typed with the policy set of its bots. With ``twin``
    (:func:`new_twin`), the handle links the twin's own handle, which kernels reach
    by :func:`sim._numba.linked_view` (the search bot's playouts, :mod:`sim.bots.search`
    and :mod:`sim.bots.penalty_search`). With
    ``NUMBA_DISABLE_JIT=1`` kernels are plain Python and take ``state`` itself, or
    a :class:`LinkedState` of it. The twin's handle is typed with ``state``'s policy
    set now, so that the playouts' writes to the twin's bots table do not retype it."""
    if numba.config.DISABLE_JIT:
        if twin is None:
            return state
        linked = LinkedState(*state)
        linked.link = twin
        return linked
    if twin is None:
        return StateView(StateType, state)
    twin_view = StateView(StateType, twin, policies=port.policy_set(state.bots[:, BOT_POLICY]))
    return StateView(StateType, state, twin_view)
