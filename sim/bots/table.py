"""The policy table: every policy the engine can seat, and what the port
(:mod:`sim.port`) asks of it. Adding a bot is a module in ``sim/bots/`` and a line
here (and its rung in :data:`sim.bots.ids.LADDER`).

Per policy (:class:`Policy`): its id (:mod:`sim.bots.ids`); the name a user gives it,
if any; its ``choose`` kernel and the arguments the dispatch passes it
(:func:`sim.bots.policy.decide`): the seat's view of the state
(:mod:`sim.bots.observation`), never the state itself, but for the test-only
``scripted``, which reads no position; its parameters' defaults and valid ranges
(:mod:`sim.bots.spec`); its turn-start hook, called by the game loop before each of
its seat's turns (the state's handle links a second state for scratch,
:func:`sim.state.kernel_state`); its off-turn penalty kernel, which the dispatch calls with the whole
state for an R8.3 penalty of its seat on another seat's turn (the search bot plays
out from there, :mod:`sim.bots.penalty_search`), and the function giving the address
of the C callback that kernel calls (a bot row's ``BOT_ADDRESS``,
:func:`sim.bots.spec.bot_tables`); whether it reads the option rows of a ``D_PLAY`` decision; and
whether it reads the need tables of the face-up tasks (``needs``, ``subset_ok``),
which the dispatch fills before it decides (:func:`sim.rules.completion.subset_needs`):
the seat view shows them read-only; and the memory it keeps between decisions, which
a run allocates for the bots it seats (:mod:`sim.bots.memory`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.bots import expert, greedy, planner, search_tree
from sim.bots.greedy import greedy_choose
from sim.bots.expert import expert_choose
from sim.bots.ids import EXPERT, GREEDY, PLANNER, RANDOM, SCRIPTED, SEARCH, UNIFORM, USER
from sim.bots.planner import planner_choose
from sim.bots.random_bot import random_choose
from sim.bots.scripted import scripted_choose
from sim.bots.penalty_search import off_turn_penalty, penalty_address
from sim.bots.search import plan_turn
from sim.bots.search_tree import search_choose
from sim.bots.uniform_bot import uniform_choose
from sim.bots.user import user_choose

# The arguments a policy's choose kernel takes, by kind; names of the dispatch's locals,
# where ``obs`` is the seat's view (sim.bots.observation) and ``st`` the whole state.
DECISION = "obs, deck, seat, kind, n_options"
WITH_PARAMS = DECISION + ", obs.bot_params[bot]"


@dataclass(frozen=True)
class Policy:
    """One row of the policy table (module docstring)."""

    id: int
    name: str | None  # None: not for users to name
    choose: object  # kernel
    arguments: str  # choose's arguments, from decide's locals
    params: dict[str, float] = field(default_factory=dict)
    limits: dict[str, tuple[float, float, bool]] = field(default_factory=dict)
    turn_start: object | None = None  # kernel (st, deck), or None
    off_turn_penalty: object | None = None  # kernel (st, deck, seat, n_options, bot) -> index, or None
    callback_address: object | None = None  # () -> int, the bot row's BOT_ADDRESS, or None
    reads_option_rows: bool = True
    reads_need_tables: bool = False
    memory: object | None = None  # (deck, params row) -> {bot-memory field: array} (sim.bots.memory), or None


POLICIES = (
    Policy(RANDOM, "random", random_choose, DECISION, reads_option_rows=False),
    Policy(UNIFORM, "uniform", uniform_choose, "obs, n_options", reads_option_rows=False),
    Policy(GREEDY, "greedy", greedy_choose, WITH_PARAMS, greedy.PARAMS, reads_need_tables=True),
    Policy(PLANNER, "planner", planner_choose, WITH_PARAMS, planner.PARAMS, reads_need_tables=True),
    # planner's features with weights tuned per player count, shipped in sim/bots/expert_weights.json:
    Policy(EXPERT, "expert", expert_choose, WITH_PARAMS, expert.shipped_weights(), expert.limits(),
           reads_need_tables=True),
    # plans its turn at turn start (sim.bots.search), then follows its tree, else as planner:
    Policy(SEARCH, "search", search_choose, WITH_PARAMS, search_tree.PARAMS, search_tree.LIMITS, plan_turn,
           off_turn_penalty, penalty_address, reads_need_tables=True, memory=search_tree.tree_memory),
    Policy(SCRIPTED, None, scripted_choose, "st"),  # tests only: replays a script, reads no position
    Policy(USER, None, user_choose, DECISION + ", obs.bots[bot, BOT_ADDRESS]"),  # a user's file (sim.bots.user)
)
BY_ID = {policy.id: policy for policy in POLICIES}
