"""Reading the documentation as tests: fenced blocks with their annotation, inline commands.

A fenced block may be preceded by an HTML comment that says how it is tested:

- ``<!-- doc-test: run (...) -->``: run it (``sh`` in bash against a live service, ``python``
  as a script, ``json`` parsed); blocks of those languages without an annotation run too;
- ``<!-- doc-test: cli (...) -->``: not run (it starts the service, or waits for a person);
  every ``dicehall`` command in it must exist and name only options it has, required ones
  included;
- ``<!-- doc-test: paths (...) -->``: every path named in it exists in the repository;
- ``<!-- doc-test: tested-by PATH (...) -->``: another test runs it (PATH must exist and read
  the document);
- ``<!-- doc-test: skip (reason) -->``: not tested, with the reason.

Any other block (no language, no annotation) is an error: every block is tested somehow.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    "README.md",
    *sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("docs/*.md")),
    "clients/README.md",
]
"""Every document whose commands and blocks are tests: README.md, docs/*.md (all of them,
so a new page is covered the day it is added), clients/README.md."""
RUNNABLE = {"sh", "bash", "python", "json"}
KINDS = {"run", "cli", "paths", "tested-by", "skip"}

FENCE = re.compile(
    r"(?:<!--\s*doc-test:\s*(?P<note>.*?)\s*-->\n)?```(?P<lang>[\w-]*)\n(?P<body>.*?)```", re.S
)


@dataclass(frozen=True)
class Block:
    """One fenced block of a document."""

    doc: str
    line: int
    lang: str
    body: str
    kind: str
    argument: str

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks(doc: str) -> list[Block]:
    """Every fenced block of ``doc`` (a path relative to the repository) with how it is
    tested: the annotation's kind, else ``run`` for runnable languages, else ``""``."""
    text = (ROOT / doc).read_text()
    found = []
    for match in FENCE.finditer(text):
        note = match.group("note") or ""
        lang = match.group("lang")
        words = note.split()
        kind = words[0] if words else ("run" if lang in RUNNABLE else "")
        argument = words[1] if kind == "tested-by" and len(words) > 1 else ""
        line = text.count("\n", 0, match.start("body"))
        found.append(Block(doc, line, lang, match.group("body"), kind, argument))
    return found


def all_blocks() -> list[Block]:
    return [block for doc in DOCS for block in blocks(doc)]


def shell_commands(body: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments dropped."""
    joined = body.replace("\\\n", " ")
    commands = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            commands.append(line)
    return commands


def dicehall_invocations(command_line: str) -> list[list[str]]:
    """The ``dicehall ...`` commands in one shell line (split on ``&&``, ``;``, ``|``)."""
    found = []
    for part in re.split(r"&&|;|\|\|?", command_line):
        try:
            words = shlex.split(part, comments=True)
        except ValueError:
            continue
        if words and words[0] == "dicehall":
            found.append(words)
    return found


def inline_commands(doc: str) -> list[tuple[str, list[str]]]:
    """Every inline ``dicehall ...`` span of ``doc``, as words (optional brackets and
    alternatives' bars dropped); spans naming a placeholder command (``COMMAND``) skipped."""
    text = (ROOT / doc).read_text()
    out = []
    for span in re.findall(r"`(dicehall [^`]+)`", text):
        cleaned = re.sub(r"\\\||[\[\]|]", " ", span).replace("...", " ")
        words = shlex.split(cleaned)
        if len(words) > 1 and words[1].isupper():
            continue
        out.append((span, words))
    return out


def cli_problems(words: list[str]) -> list[str]:
    """What is wrong with a documented ``dicehall`` command: an unknown command, an option
    it does not have, or a required option left out."""
    from clients.cli.main import cli

    command: click.Command = cli
    index = 1
    while isinstance(command, click.Group):
        if index >= len(words) or words[index] not in command.commands:
            return [f"{' '.join(words[: index + 1])}: no such command"]
        command = command.commands[words[index]]
        index += 1
    given = {w.split("=")[0] for w in words[index:] if w.startswith("-")}
    known = {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)} | {"--help"}
    problems = [f"{' '.join(words[:index])}: no option {o}" for o in sorted(given - known)]
    if "--help" not in given:
        for param in command.params:
            if isinstance(param, click.Option) and param.required and not given & set(param.opts):
                problems.append(f"{' '.join(words[:index])}: {param.opts[0]} is required")
    return problems


def named_paths(body: str) -> list[str]:
    """Repository paths in a layout block: each line's first word ending in ``/`` and every
    ``name.ext`` after it (relative to that directory)."""
    paths = []
    for line in body.splitlines():
        words = line.split()
        if not words or not words[0].endswith("/"):
            continue
        folder = words[0]
        paths.append(folder)
        for word in words[1:]:
            word = word.strip(",.:;()")
            if re.fullmatch(r"[\w<>-]+\.(py|md|yaml|json|toml)", word) and "<" not in word:
                paths.append(folder + word)
    return paths


def code_paths(doc: str) -> list[str]:
    """Inline code spans of ``doc`` that look like files of the repository (a directory and
    a file name with an extension), e.g. ``engine/kingdice/RULES.md``."""
    text = (ROOT / doc).read_text()
    return [
        span
        for span in re.findall(r"`([\w./-]+/[\w.-]+\.(?:md|py|json|yaml|txt|toml))`", text)
        if "<" not in span
    ]
