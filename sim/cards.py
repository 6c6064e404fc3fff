"""The card data: schema, loading and validation of ``cards.yaml`` (RULES R1).

A deck file has a ``format`` number and three lists, ``allies``, ``tasks`` and
``morale``. Every card has a unique ``id`` (snake_case, unique across the three
lists), a ``name``, an optional ``estimated`` list naming the fields whose
values are estimates rather than printed values (RULES R1 Reading), and an optional
``locked`` list naming the fields ``revachol advise`` must never propose to edit.

Ally (R1.2): ``symbols`` (1 or 2 of the 7 symbols), ``points`` (victory points,
0 to ``MAX_POINTS``) and an optional ``ability`` key (A1-A9, see :class:`Ability`). Abilities are
read from this key only, never inferred from a card's name.

Task (R1.4): ``points`` (reward points, 0 to ``MAX_POINTS``), ``requires`` (1 to 4 coloured
symbols, never a crown) and ``special`` (a Special Task for A8).

Morale card (R1.3, R8): ``save``, the dice result that saves a player, and
``penalty``, one of R8.3's three losses. ``save`` takes these forms (R8 Reading),
each with its exact probability on two six-sided dice:

==========================  ==========================  ===========
form                        meaning                     probability
==========================  ==========================  ===========
``[a, b]`` with a != b      one die a, the other b      2/36
``[a, a]``                  a double of a               1/36
``{one_face: a}``           a on either die             11/36
``any_double``              both dice equal             6/36
==========================  ==========================  ===========

A deck holds at most ``MAX_ALLIES`` allies, ``MAX_TASKS`` tasks and ``MAX_MORALE``
morale cards: the limits that keep the engine's integers and buffers in range (their
reasons are given where they are defined).

Loading never lets a raw exception through: every problem is reported as a
:class:`CardProblem` naming the file, the line, the card and the field, and saying
what would be valid, all gathered in one :class:`DeckError`.
"""

from __future__ import annotations

import copy
import difflib
import enum
import functools
import hashlib
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)
from pydantic_core import PydanticCustomError


class Symbol(enum.IntEnum):
    """The seven symbols (RULES Terms). Codes 0-5 are the colours; 6 is the joker."""

    BLUE = 0  # blue circle
    YELLOW = 1  # yellow triangle
    GREEN = 2  # green pentagon
    RED = 3  # red diamond
    ORANGE = 4  # orange cross (+)
    PURPLE = 5  # purple cross (X)
    CROWN = 6  # White Crown, covers any colour (R6.1)


N_COLOURS = 6
N_SYMBOLS = 7


class Ability(enum.IntEnum):
    """Ally abilities; the value is the ability's number in docs/RULES.md (A1-A9)."""

    NONE = 0
    BORROW = 1
    DOUBLE = 2
    UNTOUCHABLE = 3
    EXTRA_PLAY = 4
    STAYS = 5
    SWAP = 6
    RELOCATE = 7
    SPECIAL_CROWN = 8
    FORCED_DRAW = 9


class Penalty(enum.IntEnum):
    """The three morale-loss penalties (R8.3)."""

    SQUAD_ALLY = 0  # one ally from one of your squads -> statue discard
    COMPLETED_TASK = 1  # one completed task -> permanent discard
    HAND_ALLY = 2  # one ally from your hand -> statue discard


class SaveKind(enum.IntEnum):
    """Forms of a morale card's save requirement (R8 Reading)."""

    BOTH_FACES = 0
    ONE_FACE = 1
    ANY_DOUBLE = 2


SymbolName = Literal["blue", "yellow", "green", "red", "orange", "purple", "crown"]
ColourName = Literal["blue", "yellow", "green", "red", "orange", "purple"]
AbilityName = Literal[
    "borrow",
    "double",
    "untouchable",
    "extra_play",
    "stays",
    "swap",
    "relocate",
    "special_crown",
    "forced_draw",
]
PenaltyName = Literal["squad_ally", "completed_task", "hand_ally"]
CardId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+$")]
Name = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True)]

PRINTED_COUNTS = {"allies": 40, "tasks": 25, "morale": 24}  # R1.1
MIN_ALLIES = 6  # R3.2: three allies dealt to each of at least two players (R2.1)
MIN_TASKS = 1  # R9.1: a game with no face-up task is already over
# Upper limits, so that any deck that validates plays (RULES "Readings": no silent
# overflow). Each keeps every integer and buffer of the engine in range:
MAX_POINTS = 10_000  # per card: a score is at most (MAX_TASKS + MAX_ALLIES) x MAX_POINTS
# = 15,000,000 points (R9.2), far inside the int32 of the deck arrays and records
MAX_ALLIES = 500  # a state's largest arrays grow as A^2 (sim.state): squads (4, A, A)
# int64 = 8 MB, the flow network (23 + 3 A)^2 int64 <= 19 MB, option rows <= A^2 (A1
# borrows) x 8 int64 = 16 MB; the search bot holds two states
MAX_TASKS = 1_000  # with MAX_POINTS, bounds the score (above); records hold (games, T, 3)
MAX_MORALE = 1_000  # with MAX_ALLIES, bounds the statue deck (A + M) and the records
# (games, M, 2); per card a game counts one event at most (R8.5) and 4 saves, in int16
MAX_COUNTS = {"allies": MAX_ALLIES, "tasks": MAX_TASKS, "morale": MAX_MORALE}


MAX_ECHO = 60  # characters of a value quoted back in an error message


def _echo(value: Any) -> str:
    """``repr(value)``, cut to :data:`MAX_ECHO` characters so that an error message
    never repeats a huge value."""
    text = repr(value)
    return text if len(text) <= MAX_ECHO else f"{text[:MAX_ECHO]}... ({len(text):,} characters)"


class Save(BaseModel):
    """A morale card's save requirement, compared die by die (R8.2)."""

    model_config = ConfigDict(frozen=True, strict=True)

    kind: SaveKind
    faces: list[int]  # two faces for BOTH_FACES, one for ONE_FACE, none for ANY_DOUBLE

    @property
    def probability(self) -> Fraction:
        """Exact probability that two fair dice save the player (R8 Reading)."""
        if self.kind is SaveKind.ANY_DOUBLE:
            return Fraction(6, 36)
        if self.kind is SaveKind.ONE_FACE:
            return Fraction(11, 36)
        a, b = self.faces
        return Fraction(1, 36) if a == b else Fraction(2, 36)


SAVE_FORMS = "[a, b] with die faces 1-6 (either order), {one_face: a}, or any_double"


def _face(value: Any) -> int:
    if type(value) is not int or not 1 <= value <= 6:
        raise PydanticCustomError("save_form", f"a die face must be an integer 1-6; valid forms: {SAVE_FORMS}")
    return value


def _parse_save(raw: Any) -> Save:
    """Turn the YAML value of ``save`` into a :class:`Save` (R8 Reading forms)."""
    if isinstance(raw, Save):
        return raw
    if raw == "any_double":
        return Save(kind=SaveKind.ANY_DOUBLE, faces=[])
    if isinstance(raw, list) and len(raw) == 2:
        return Save(kind=SaveKind.BOTH_FACES, faces=[_face(raw[0]), _face(raw[1])])
    if isinstance(raw, dict) and list(raw) == ["one_face"]:
        return Save(kind=SaveKind.ONE_FACE, faces=[_face(raw["one_face"])])
    raise PydanticCustomError("save_form", f"not a save requirement; valid forms: {SAVE_FORMS}")


def _dump_save(save: Save) -> Any:
    """The YAML form of a save requirement, inverse of :func:`_parse_save`."""
    if save.kind is SaveKind.ANY_DOUBLE:
        return "any_double"
    if save.kind is SaveKind.ONE_FACE:
        return {"one_face": save.faces[0]}
    return list(save.faces)


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: CardId
    name: Name
    estimated: list[str] = Field(default_factory=list)
    locked: list[str] = Field(default_factory=list)  # fields ``revachol advise`` leaves as they are

    @field_validator("estimated", "locked")
    @classmethod
    def _estimated_names_fields(cls, names: list[str]) -> list[str]:
        fields = sorted(set(cls.model_fields) - {"id", "estimated", "locked"})
        for name in names:
            if name not in fields:
                raise PydanticCustomError(
                    "estimated_field", f"{_echo(name)} is not a field of this card; valid: {', '.join(fields)}"
                )
        return names


def _points_in_range(points: int) -> int:
    if points > MAX_POINTS:
        raise PydanticCustomError(
            "card_limit", f"{points} points is more than the limit of {MAX_POINTS:,} per card (MAX_POINTS: keeps scores within 32-bit integers)"
        )
    return points


Points = Annotated[int, Field(ge=0), AfterValidator(_points_in_range)]


class Ally(_Card):
    """An Ally card (R1.2)."""

    symbols: Annotated[list[SymbolName], Field(min_length=1, max_length=2)]
    points: Points
    ability: AbilityName | None = None


class Task(_Card):
    """A Task card (R1.4); ``special`` marks a Special Task (A8)."""

    points: Points
    requires: Annotated[list[ColourName], Field(min_length=1, max_length=4)]
    special: bool = False


class Morale(_Card):
    """A Morale card (R1.3)."""

    save: Annotated[Save, BeforeValidator(_parse_save)]
    penalty: PenaltyName


class Deck(BaseModel):
    """A whole validated deck: the contents of one ``cards.yaml``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    format: Literal[1]
    allies: list[Ally]
    tasks: list[Task]
    morale: list[Morale]

    def to_yaml_data(self) -> dict[str, Any]:
        """The deck as plain YAML-ready data, the inverse of validation."""
        data = self.model_dump(mode="json", exclude_defaults=False)
        for card, raw in zip(self.morale, data["morale"]):
            raw["save"] = _dump_save(card.save)
        for section in ("allies", "tasks", "morale"):
            for raw in data[section]:
                if not raw["locked"]:  # absent unless given: a deck's content hash does not change with the field
                    del raw["locked"]
        return data

    @property
    def content_hash(self) -> str:
        """SHA-256 (hex) of the deck's canonical JSON: stable under comments and layout."""
        canonical = json.dumps(self.to_yaml_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    @property
    def has_estimates(self) -> bool:
        """True when any card marks a value as estimated (RULES R1 Reading)."""
        return any(card.estimated for card in (*self.allies, *self.tasks, *self.morale))

    def count_warnings(self) -> list[str]:
        """Warnings for counts that differ from the printed game's (R1.1, R1.5)."""
        return [
            f"{len(getattr(self, section))} {section} (the printed game has {printed}); allowed, but check it is intended"
            for section, printed in PRINTED_COUNTS.items()
            if len(getattr(self, section)) != printed
        ]


SECTION_KIND = {"allies": "ally", "tasks": "task", "morale": "morale card"}


@dataclass(frozen=True)
class CardProblem:
    """One thing wrong with a deck file, located as precisely as the input allows."""

    file: str
    line: int | None
    message: str
    section: str | None = None
    index: int | None = None
    card_id: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        parts = []
        if self.section is not None and self.index is not None:
            card = _echo(self.card_id) if self.card_id else "with no valid id"
            parts.append(f"{SECTION_KIND[self.section]} {card} ({self.section}[{self.index}])")
        elif self.section is not None:
            parts.append(f"section '{self.section}'")
        if self.field:
            parts.append(f"field {_echo(self.field)}")
        return f"{where}: {', '.join(parts) + ': ' if parts else ''}{self.message}"


class DeckError(Exception):
    """A deck file that cannot be used; ``problems`` lists every problem found."""

    def __init__(self, problems: list[CardProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


# PyYAML's problems that a tab or a misaligned line causes: they get a plain hint.
INDENTATION_SIGNS = ("'\\t'", "<block end>", "mapping values are not allowed", "could not find expected ':'")


class _PlainDumper(yaml.SafeDumper):
    """PyYAML's safe dumper that writes a value used twice out again instead of as an
    alias: deck files refuse aliases (:class:`_StrictLoader`)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def as_written(value: Any) -> str:
    """A card field's value as written in ``cards.yaml`` (YAML flow style): ``[red, blue]``,
    ``3``, ``{one_face: 4}``, ``any_double``."""
    return yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("\n...")


def dump_yaml(data: Any) -> str:
    """``data`` as YAML a deck file may hold: no aliases, keys in their order, Unicode as is."""
    return yaml.dump(data, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True)


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader that refuses a key given twice in one mapping, and
    aliases (``*name``): a deck file has no use for them, and a few nested aliases
    expand to billions of nodes ("billion laughs")."""

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            raise yaml.composer.ComposerError(
                None, None, f"alias *{event.anchor[:MAX_ECHO]} is not allowed in a deck file; write the value out",
                event.start_mark,
            )  # fmt: skip
        return super().compose_node(parent, index)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {_echo(key)} is given twice in one mapping; keep one", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


PARSED_TEXTS = 32  # deck texts whose YAML parse is kept: advise parses each candidate's text about ten times


def _parse_yaml(text: str, file: str) -> tuple[Any, yaml.Node | None]:
    """The YAML data (a copy of its own) and node tree of a deck file's text. Parsing
    is most of :func:`parse_deck`'s time (about 55 ms for the default deck, pure-Python
    PyYAML: :class:`_StrictLoader` refuses aliases in the composer, which the C parser
    skips), and a run's deck is parsed by every table that opens the run, so the last
    :data:`PARSED_TEXTS` texts' parses are kept: the node tree is shared (its readers
    only read it), the data copied (validation may be handed it)."""
    data, node = _parsed(text, file)
    return copy.deepcopy(data), node


@functools.lru_cache(maxsize=PARSED_TEXTS)
def _parsed(text: str, file: str) -> tuple[Any, yaml.Node | None]:
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        line = mark.line + 1 if mark is not None else None
        if line is not None and any(sign in problem for sign in INDENTATION_SIGNS):
            problem += f"; check the indentation of line {line}: use spaces, not tabs"
        raise DeckError([CardProblem(file, line, f"not valid YAML: {problem}")]) from None
    finally:
        loader.dispose()
    return data, node


def _line_of(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the deepest YAML node reachable along ``loc``."""
    line = node.start_mark.line + 1 if node is not None else None
    for step in loc:
        child = None
        if isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if k.value == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            child = node.value[step]
        if child is None:
            break
        node, line = child, child.start_mark.line + 1
    return line


def _card_id(data: Any, section: str, index: int) -> str | None:
    try:
        card_id = data[section][index]["id"]
    except (KeyError, IndexError, TypeError):
        return None
    return card_id if isinstance(card_id, str) else None


def _problem(file: str, node: yaml.Node | None, data: Any, loc: tuple[Any, ...], message: str) -> CardProblem:
    section = loc[0] if loc and loc[0] in SECTION_KIND else None
    index = loc[1] if section and len(loc) > 1 and isinstance(loc[1], int) else None
    field_path = loc[2:] if index is not None else loc[1:] if section else loc
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in field_path).lstrip(".") or None
    card_id = _card_id(data, section, index) if index is not None else None
    return CardProblem(file, _line_of(node, loc), message, section, index, card_id, field)


def _message(error: dict[str, Any], model: type[BaseModel] | None) -> str:
    kind, got = error["type"], error.get("input")
    if kind == "missing":
        return "this field is missing"
    if kind == "extra_forbidden":
        valid = ", ".join(model.model_fields) if model else "see docs/DECK.md"
        return f"unknown field; valid fields: {valid}"
    if kind == "literal_error":
        return f"{_echo(got)} is not valid here; valid: {error['ctx']['expected']}"
    message = error["msg"].removeprefix("Value error, ")
    return message if kind in {"save_form", "estimated_field", "card_limit"} else f"{message} (got {_echo(got)})"


_SECTION_MODEL = {"allies": Ally, "tasks": Task, "morale": Morale}


def _deck_rule_problems(deck: Deck, file: str, node: yaml.Node | None, data: Any) -> list[CardProblem]:
    """Checks across cards: unique ids, and a deck large enough to play (R2.1, R3)."""
    problems = []
    first_seen: dict[str, tuple[str, int]] = {}
    for section in SECTION_KIND:
        for index, card in enumerate(getattr(deck, section)):
            if card.id in first_seen:
                other = "{}[{}]".format(*first_seen[card.id])
                problems.append(
                    _problem(file, node, data, (section, index, "id"), f"id already used by {other}; ids must be unique")
                )
            else:
                first_seen[card.id] = (section, index)
    if len(deck.allies) < MIN_ALLIES:
        problems.append(
            _problem(file, node, data, ("allies",), f"{len(deck.allies)} allies is too few to play: at least {MIN_ALLIES} are needed to deal 3 to each of 2 players (R3.2)")
        )
    if len(deck.tasks) < MIN_TASKS:
        problems.append(_problem(file, node, data, ("tasks",), f"no tasks: at least {MIN_TASKS} is needed (R9.1)"))
    for section, limit in MAX_COUNTS.items():
        count = len(getattr(deck, section))
        if count > limit:
            problems.append(
                _problem(file, node, data, (section,), f"{count:,} {section} is more than the engine's limit of {limit:,} (MAX_{section.upper()} in sim/cards.py)")
            )
    return problems


def line_of_value(text: str, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the value at ``loc`` (e.g. ``("tasks", 3, "points")``) in a
    deck file's text, for editing one value in place (comments kept).

    Raises
    ------
    DeckError
        When the text is not valid YAML.
    """
    _, node = _parse_yaml(text, "<cards>")
    return _line_of(node, loc)


def with_values(text: str, changes: dict[tuple[str, int, str], Any], file: str = "<cards>") -> str:
    """The text of a deck file with each value at ``(section, index, field)`` replaced
    in place: a value written on its key's line is replaced there (a comment after it
    kept), a block-style list (one ``- item`` per line) becomes its key's line in YAML
    flow style (:func:`as_written`). A value ``None`` removes its key's lines (an
    optional field, such as an ally's ``ability``, falls back to its default); a field
    the card does not have gets a line of its own after the card's last line, at the
    indentation of its keys. Every other line, comments included, is kept byte for byte.

    Raises
    ------
    ValueError
        When a value cannot be found on its key's line or under it (the message
        names the card and the field).
    DeckError
        When the text is not valid YAML.
    """
    lines = text.splitlines(keepends=True)
    data, node = _parse_yaml(text, file)
    spans = []
    for (section, index, field), value in changes.items():
        card = _node_at(node, (section, index))
        key, item = next(((k, v) for k, v in card.value if k.value == field), (None, None))
        if key is None:  # a new field: a line of its own after the card's last line
            if value is not None:
                last = card.value[-1][1].end_mark
                at = last.line + (last.column > 0)
                newline = "\n" if at == len(lines) and lines and not lines[-1].endswith("\n") else ""
                spans.append((at, at, f"{newline}{' ' * card.value[0][0].start_mark.column}{field}: "
                                      f"{as_written(value)}\n"))  # fmt: skip
            continue
        first = key.start_mark.line
        last = item.value[-1].end_mark if isinstance(item, yaml.SequenceNode) and item.value else item.end_mark
        end = last.line + (last.column > 0)
        if value is None:  # the field removed: its key's lines go
            spans.append((first, end, ""))
        elif item.start_mark.line == first:  # flow style or a scalar: on the key's line
            spans.append((first, first + 1, re.sub(rf"(\b{field}:\s*)[^#\n]+?(\s*(#.*)?\n?)$",
                                                   lambda m: m[1] + as_written(value) + m[2], lines[first], count=1)))
        else:  # a block-style list: its items' lines become the key's line
            spans.append((first, end, f"{lines[first][:key.start_mark.column]}{field}: {as_written(value)}\n"))
    for start, end, replacement in sorted(spans, reverse=True):
        lines[start:end] = [replacement] if replacement else []
    edited = "".join(lines)
    got, _ = _parse_yaml(edited, file)
    for (section, index, field), value in changes.items():
        if got[section][index].get(field) != value:
            card_id = _card_id(data, section, index)
            raise ValueError(f"{file}: {SECTION_KIND[section]} {card_id!r}, field {field!r}: cannot edit it in place; "
                             f"write it on its key's line, e.g. {field}: {as_written(value)}")  # fmt: skip
    return edited


def _node_at(node: yaml.Node, loc: tuple[Any, ...]) -> yaml.Node:
    """The YAML node at ``loc`` (keys and list indices) below ``node``."""
    for step in loc:
        if isinstance(node, yaml.MappingNode):
            node = next(v for k, v in node.value if k.value == step)
        else:
            node = node.value[step]
    return node


VALIDATED_KEPT = 64
"""How many validated deck texts a process keeps (:func:`parse_deck`): a run, its
companions and its analysis read the same few."""
_validated: dict[str, Deck] = {}  # deck text -> its Deck, oldest first (a deck is frozen: safe to share)


def remember(text: str, deck: Deck) -> None:
    """Keep ``deck`` as the validated deck of ``text`` (the YAML written from it), so
    that reading ``text`` back returns it without validating again (issue 67 item 4:
    a run validates its deck once; the copies of it in the run are written from it)."""
    _validated.pop(text, None)
    _validated[text] = deck
    while len(_validated) > VALIDATED_KEPT:
        del _validated[next(iter(_validated))]


def parse_deck(text: str, file: str = "<cards>") -> Deck:
    """Validate the text of a deck file; a text this process validated before (or
    wrote from a deck, :func:`remember`) gives the same :class:`Deck` again without
    validating it twice (a deck is frozen). ``file`` names only the problems of an
    invalid text.

    Parameters
    ----------
    text : str
        YAML text in the format described in this module's docstring.
    file : str
        The name used in error messages.

    Returns
    -------
    Deck

    Raises
    ------
    DeckError
        With one :class:`CardProblem` per problem found (file, line, card id, field,
        and what would be valid).
    """
    known = _validated.get(text)
    if known is not None:
        remember(text, known)  # the most recently used, kept longest
        return known
    data, node = _parse_yaml(text, file)
    if not isinstance(data, dict):
        raise DeckError([CardProblem(file, 1, "a deck file is a mapping with keys format, allies, tasks, morale")])
    try:
        deck = Deck.model_validate(data)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            loc = error["loc"]
            model = _SECTION_MODEL.get(loc[0]) if len(loc) > 2 else Deck
            problems.append(_problem(file, node, data, loc, _message(error, model)))
        raise DeckError(problems) from None
    problems = _deck_rule_problems(deck, file, node, data)
    if problems:
        raise DeckError(problems)
    remember(text, deck)
    return deck


def load_deck(path: str | Path) -> Deck:
    """Read and validate a deck file (see :func:`parse_deck`).

    Raises
    ------
    DeckError
        When the file cannot be read or does not validate.
    """
    return read_deck(path)[0]


def read_deck(path: str | Path) -> tuple[Deck, str]:
    """Read a deck file once: its validated deck (:func:`parse_deck`) and the text
    that was validated, e.g. to copy it into a run.

    Raises
    ------
    DeckError
        When the file cannot be read or does not validate.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError([CardProblem(str(path), None, f"cannot read the deck file: {exc}")]) from None
    return parse_deck(text, str(path)), text


def unknown_id(kind: str, value: str, ids: list[str], where: str = "cards.yaml") -> str:
    """The message for an id that names no card: ``'hary' is not an ally id of
    cards.yaml; did you mean 'harry'?`` (closest ids by :func:`difflib.get_close_matches`)."""
    close = difflib.get_close_matches(value, ids, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else f"; the {kind} ids are listed in {where}"
    return f"{value!r} is not {'an' if kind[0] in 'aeiou' else 'a'} {kind} id of {where}{hint}"
