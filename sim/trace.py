"""A readable turn-by-turn log of one game, in the game's terms (``revachol replay``).

The engine writes event rows (:mod:`sim.events`) when tracing is on; this module
plays one game with tracing and turns the rows into text. Completions show which
symbols covered which requirement and where a White Crown stood in (R6.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sim import events as ev
from sim.bots.spec import parse_bot
from sim.cards import Deck, Penalty, SaveKind
from sim.deck_arrays import compile_deck
from sim.play import run_games
from sim.options import RuleOptions
from sim.state import (
    EMPTY,
    LOG_N,
    MAX_LOG,
    N_PLAYERS,
    OUTCOME_FINISHED,
    OUTCOME_STALLED,
    OUTCOME_TRUNCATED,
    S_SCORE,
    TIE_DICE,
    TURN,
    WINNER,
    State,
    new_state,
)

PENALTY_TEXT = {0: "an ally from a squad", 1: "a completed task", 2: "an ally from the hand"}
OUTCOME_TEXT = {
    OUTCOME_FINISHED: "no task is face up (R9.1)",
    OUTCOME_STALLED: "stalled: every player was stuck in turn (R4 Reading)",
    OUTCOME_TRUNCATED: "truncated at the turn cap (R4 Reading)",
}


def replay(
    deck: Deck,
    n_players: int,
    seed: int,
    game: int = 0,
    bots: Sequence[str] | None = None,
    options: RuleOptions = RuleOptions(),
) -> str:
    """Play game ``game`` of the run with root ``seed`` and return its log as text.

    The game is the same one a batch run with this seed plays as game ``game``.

    Raises
    ------
    ValueError
        As :func:`sim.play.run_games`.
    """
    arrays = compile_deck(deck)
    specs = [parse_bot(text, [a.id for a in deck.allies]) for text in (bots or ["random"] * n_players)]
    log_rows = MAX_LOG
    while True:
        state = new_state(arrays, options.to_array(trace=True), trace=True, log_rows=log_rows)
        run_games(arrays, n_players, 1, seed, specs, options, first_game=game, state=state)
        if state.g[LOG_N] < log_rows:
            break
        log_rows *= 4  # the log is full, so it may have stopped early: play the same game with more room
    header = "Rule options: " + ", ".join(f"{name} {'on' if on else 'off'}" for name, on in options.readings().items())
    return "\n".join([header, *_Formatter(deck, state).lines()])


class _Formatter:
    def __init__(self, deck: Deck, state: State):
        self.deck = deck
        self.state = state
        self.rows = state.log[: state.g[LOG_N]].tolist()

    def ally(self, index: int) -> str:
        card = self.deck.allies[index]
        return f"{card.name} [{'+'.join(card.symbols)}]"

    def task(self, index: int) -> str:
        card = self.deck.tasks[index]
        special = ", Special" if card.special else ""
        return f"'{card.name}' [{'+'.join(card.requires)}, {plural(card.points, 'point')}{special}]"

    def morale(self, index: int) -> str:
        card = self.deck.morale[index]
        return f"{card.name} (save {_save_text(card.save)}, penalty: {PENALTY_TEXT[_penalty_code(card.penalty)]})"

    def lines(self) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(self.rows):
            code, a, b, c, d, e = self.rows[i]
            if code == ev.EV_COMPLETE:
                i = self._completion(out, i)
                continue
            text = self._line(code, a, b, c, d, e)
            if text is not None:
                out.append(text)
            i += 1
        out.extend(self._scores())
        return out

    def _line(self, code: int, a: int, b: int, c: int, d: int, e: int) -> str | None:
        if code == ev.EV_FIRST:
            return f"Seat {a} plays first (R2.2)."
        if code == ev.EV_DEAL:
            return f"  Seat {a} is dealt {self.ally(b)}."
        if code == ev.EV_REVEAL:
            return f"  Task {self.task(a)} is revealed at position {b}."
        if code == ev.EV_TURN:
            return f"\nTurn {b}: seat {a}."
        if code == ev.EV_PLAY:
            where = "a new squad" if e else f"squad {c + 1}"
            extra = " (extra play, A4)" if d else ""
            return f"  Seat {a} plays {self.ally(b)} into {where}{extra}."
        if code == ev.EV_DRAW_ALLY:
            return f"  Seat {a} draws {self.ally(b)}."
        if code == ev.EV_DRAW_MORALE:
            return f"  Seat {a} draws the morale card {self.morale(b)}; the morale track holds {c} of 3."
        if code == ev.EV_RESHUFFLE:
            return f"  The statue discard ({a} cards) is shuffled into a new statue deck (R4.5)."
        if code == ev.EV_MORALE_EVENT:
            return f"  MORALE-LOSS EVENT: {self.deck.morale[a].name} fails the task at position 3, {self.task(b)}."
        if code == ev.EV_ROLL:
            return f"    Seat {a} rolls {b} and {c}: {'saved' if d else 'not saved'}."
        if code == ev.EV_PENALTY:
            if c == EMPTY:
                return f"    Seat {a} has no {PENALTY_TEXT[b].split(' ', 1)[1]} to give up."
            lost = self.task(c) if b == 1 else self.ally(c)
            return f"    Seat {a} gives up {lost}."
        if code == ev.EV_SWAP:
            return f"  Harry (A6): seat {a} takes {self.ally(c)} from seat {b} into squad {d + 1}; Harry goes to seat {b}."
        if code == ev.EV_RELOCATE:
            return f"  Garte (A7): seat {a} moves {self.ally(b)} from squad {c + 1} to squad {d + 1}."
        if code == ev.EV_STUCK:
            return f"  Seat {a} has no card and cannot draw: the turn passes."
        if code == ev.EV_FORCED_DRAW:
            return f"  Evrart (A9): seat {a} must draw."
        if code == ev.EV_END:
            return f"\nGame over after {self.state.g[TURN]} turns: {OUTCOME_TEXT[a]}."
        return None

    def _completion(self, out: list[str], i: int) -> int:
        _, seat, t1, t2, t3, points = self.rows[i]
        tasks = [t for t in (t1, t2, t3) if t != EMPTY]
        members, borrowed = [], []
        i += 1
        squad = 0
        while i < len(self.rows) and self.rows[i][0] in (ev.EV_SQUAD_CARD, ev.EV_BORROW):
            code, a, b, c, d, _ = self.rows[i]
            if code == ev.EV_SQUAD_CARD:
                members.append((a, b, c))
                squad = d
            else:
                borrowed.append((a, b, c))
            i += 1
        names = " and ".join(self.task(t) for t in tasks)
        allies = ", ".join(self.deck.allies[m[0]].name for m in members)
        out.append(f"  Seat {seat}'s squad {squad + 1} ({allies}) completes {names} for {plural(points, 'point')}.")
        out.append(f"    Symbols: {self._cover_text(tasks, [m[0] for m in members], [b[1] for b in borrowed])}")
        for borrower, lender, owner in borrowed:
            out.append(
                f"    {self.ally(borrower)} borrowed a symbol of {self.ally(lender)} (A1) and goes face down to seat {owner}."
            )
        for ally, fate, _ in members:
            if fate == 1:
                out.append(f"    {self.ally(ally)} stays as the first card of a new squad (A5).")
        return i

    def _cover_text(self, tasks: list[int], members: list[int], lenders: list[int]) -> str:
        """Which symbols covered the requirements: colours first, then crowns (R6.1)."""
        need = Counter(s for t in tasks for s in self.deck.tasks[t].requires)
        have = Counter(s for a in members for s in self.deck.allies[a].symbols)
        have.update(s for a in set(lenders) for s in self.deck.allies[a].symbols)
        used = {colour: min(n, have[colour]) for colour, n in need.items()}
        missing = [colour for colour, n in need.items() for _ in range(n - used[colour])]
        crowns = have["crown"]
        stand_ins = missing[:crowns]
        by_ability = missing[crowns:]
        unused = [s for s, n in have.items() if s != "crown" for _ in range(n - used.get(s, 0))]
        unused += ["crown"] * (crowns - len(stand_ins))
        parts = [", ".join(f"{s}" for s, n in used.items() for _ in range(n)) or "no coloured symbol"]
        parts += [f"a White Crown stands in for {s}" for s in stand_ins]
        parts += [f"an ability (A2 double or A8 crown) covers {s}" for s in by_ability]
        text = "; ".join(parts)
        return text + (f"; unused and lost: {', '.join(unused)}" if unused else "")

    def _scores(self) -> list[str]:
        st = self.state
        lines = ["Final scores (completed task points + received allies, R9.2):"]
        for seat in range(st.g[N_PLAYERS]):
            tie = " (tie decided by dice, R9.3)" if st.g[TIE_DICE] else ""
            won = f"  <- winner{tie}" if seat == st.g[WINNER] else ""
            lines.append(f"  Seat {seat}: {plural(st.seat_stats[seat, S_SCORE], 'point')}, {plural(st.done_n[seat], 'task')}{won}")
        return lines


def plural(n: int, noun: str) -> str:
    """``1 point``, ``2 points``, ``0 points``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _save_text(save) -> str:
    if save.kind is SaveKind.ANY_DOUBLE:
        return "any double"
    if save.kind is SaveKind.ONE_FACE:
        return f"a {save.faces[0]} on either die"
    a, b = save.faces
    return f"a double {a}" if a == b else f"{a} and {b}"


def _penalty_code(name: str) -> int:
    return int(Penalty[name.upper()])
