"""The subcommand framework of `python -m posenc`, the twin of src/js/cli/args.js
and src/cli/args.c: the same options, checks in the same order and the same
messages, so the three CLIs fail alike. A subcommand is a module with USAGE,
OPTIONS (valued), FLAGS (--NAME / --no-NAME), OPERAND (its one positional
argument's name, or None) and run(given, write)."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Dict, List, NoReturn, Optional, Sequence, Tuple

VERSION = "posenc 0.1.0\n"
MAX_POSITION = 2**31

Given = Dict[str, str]


class UsageError(Exception):
    """A refusal of the CLI: its one-line message and exit code (2: usage, 1: the input or the core refused)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def fail(message: str, code: int = 2) -> NoReturn:
    """Raises the CLI's refusal."""
    raise UsageError(message, code)


def parse_count(text: Optional[str]) -> Optional[int]:
    """Decimal digits only, at most 2^31; None when not."""
    if text is None or not re.fullmatch(r"[0-9]{1,12}", text):
        return None
    value = int(text)
    return value if value <= MAX_POSITION else None


_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def parse_decimal(text: Optional[str]) -> Optional[float]:
    """A plain decimal number (no hex, inf or spaces), read as C's strtod and JS's Number() read it."""
    if text is None or not _DECIMAL.fullmatch(text):
        return None
    try:
        return float(text)
    except OverflowError:  # pragma: no cover - float() gives inf rather than raising
        return float("inf")


def flag_on(given: Given, name: str) -> bool:
    """Whether flag `name` is on: --NAME given (--no-NAME or nothing: off)."""
    return given.get(name) == "true"


def _distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        nxt = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            nxt[j] = min(row[j] + 1, nxt[j - 1] + 1, row[j - 1] + (ca != cb))
        row = nxt
    return row[len(b)]


def closest(name: str, allowed: Sequence[str]) -> Optional[str]:
    """The option a typo most likely meant (src/js/runtime/errors.js closest), or None."""
    best, best_distance = None, None
    for candidate in allowed:
        d = 0 if candidate.lower() == name.lower() else _distance(name, candidate)
        if best_distance is None or d < best_distance:
            best, best_distance = candidate, d
    limit = max(1, min(2, len(name) // 3))
    return best if best_distance is not None and best_distance <= limit else None


def _quoted_list(names: List[str]) -> str:
    return "".join(("" if k == 0 else " or " if k == len(names) - 1 else ", ") + f"'{n}'"
                   for k, n in enumerate(names))


def parse_command(argv: List[str], commands: Dict[str, ModuleType]) -> Tuple[str, Optional[ModuleType], Given]:
    """(action 'help', 'version' or 'run', the command module or None, the options given)."""
    command = commands.get(argv[0]) if argv else None
    if "--help" in argv or "-h" in argv:
        return "help", command, {}
    if "--version" in argv:
        return "version", command, {}
    names = _quoted_list(list(commands))
    if not argv:
        fail(f"missing command: one of {names} (try 'posenc table --length 10 --dim 4' or 'posenc --help')")
    if command is None:
        fail(f"unknown command '{argv[0]}'; the commands are {names} (see posenc --help)")
    name_of = argv[0]
    options: List[str] = command.OPTIONS
    flags: List[str] = getattr(command, "FLAGS", [])
    operand: Optional[str] = getattr(command, "OPERAND", None)
    given: Given = {}
    i = 1
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("--"):
            if operand is None:
                fail(f"unexpected argument '{arg}' (options start with --; see posenc {name_of} --help)")
            if operand in given:
                fail(f"{name_of} reads one {operand}; '{arg}' is a second one")
            given[operand] = arg
            i += 1
            continue
        eq = arg.find("=")
        spelled = arg if eq < 0 else arg[:eq]
        # --no-NAME turns flag --NAME off (the one boolean convention).
        off = (spelled not in options and spelled not in flags and spelled.startswith("--no-") and len(spelled) > 5
               and f"--{spelled[5:]}" in flags)
        name = f"--{spelled[5:]}" if off else spelled
        is_flag = name in flags
        if name not in options and not is_flag:
            guess = closest(name, options + flags)
            fail(f"unknown option '{name}'" + (f" (did you mean '{guess}'?)" if guess else ""))
        new_form = f"(write {name} or --no-{name[2:]})"
        if is_flag and eq >= 0:
            fail(f"{name} takes no value; got '{arg}' {new_form}")
        # The old spelling `--cls-token true` is refused with the new one.
        if is_flag and operand is None and i + 1 < len(argv) and argv[i + 1] in ("true", "false"):
            fail(f"{name} takes no value; got '{arg} {argv[i + 1]}' {new_form}")
        if not is_flag and eq < 0 and i + 1 >= len(argv):
            fail(f"{name} needs a value")
        if name in given and is_flag:
            fail(f"{name} is given twice (as {name} or --no-{name[2:]}); give it once")
        if name in given:
            fail(f"{name} is given twice; give it once")
        if is_flag:
            given[name] = "false" if off else "true"
        elif eq >= 0:
            given[name] = arg[eq + 1 :]
        else:
            i += 1
            given[name] = argv[i]
        i += 1
    return "run", command, given
