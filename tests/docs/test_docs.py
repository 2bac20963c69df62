"""The documentation is true and stays true: every block and command of README.md, docs/*.md
and clients/README.md is run, checked or explicitly marked (``tests/docs/doctest_blocks.py``
says how), against a live service (real gunicorn, Redis and rq workers)."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clients.sdk.client import Client
from engine.carcassonne import GAME as CARCASSONNE
from engine.contract import IllegalAction
from tests.docs.doctest_blocks import (
    DOCS,
    KINDS,
    ROOT,
    all_blocks,
    blocks,
    cli_problems,
    code_paths,
    dicehall_invocations,
    inline_commands,
    named_paths,
    shell_commands,
)
from tests.engine.test_carcassonne_support import new_game, set_roll

BLOCKS = all_blocks()
RULES_PAGES = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("engine/*/RULES.md"))


def by_kind(kind: str, *langs: str) -> list:
    chosen = [b for b in BLOCKS if b.kind == kind and (not langs or b.lang in langs)]
    return [pytest.param(b, id=b.where) for b in chosen]


def against(server: str, text: str) -> str:
    """The documented default address replaced by the live service's."""
    address = server.removeprefix("http://")
    return text.replace("http://127.0.0.1:8000", server).replace("localhost:8000", address)


def test_every_block_is_tested_somehow():
    assert len(BLOCKS) >= 8
    for block in BLOCKS:
        assert block.kind in KINDS, f"{block.where}: annotate the block (<!-- doc-test: ... -->)"
        if block.kind == "tested-by":
            test = ROOT / block.argument
            assert test.is_file(), f"{block.where}: {block.argument} does not exist"
            assert Path(block.doc).name in test.read_text(), f"{test} does not read {block.doc}"


@pytest.mark.usefixtures("worker")
@pytest.mark.parametrize("block", by_kind("run", "sh", "bash"))
def test_shell_blocks_run_against_a_live_service(block, live_server, tmp_path):
    script = tmp_path / "block.sh"
    script.write_text(
        "set -uo pipefail\n"
        # curl's --max-time ending a stream (exit 28) is what the block asks for
        'trap \'rc=$?; [ "$rc" -eq 28 ] || { echo "failed ($rc): $BASH_COMMAND" >&2; '
        "exit $rc; }' ERR\n" + against(live_server, block.body) + "\nexit 0\n"
    )
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    ran = subprocess.run(
        ["bash", str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env
    )
    assert ran.returncode == 0, f"{block.where}\n{ran.stderr}\n{ran.stdout[-2000:]}"
    statuses = [int(s) for s in re.findall(r'"status":\s*(\d{3})', ran.stdout)]
    assert all(s < 500 for s in statuses), f"{block.where}: a server error\n{ran.stdout}"
    assert '"game_id"' in ran.stdout or '"id"' in ran.stdout, ran.stdout[-2000:]


@pytest.mark.usefixtures("worker")
@pytest.mark.parametrize("block", by_kind("run", "python"))
def test_python_blocks_run_against_a_live_service(block, live_server, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(against(live_server, block.body))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env
    )
    assert ran.returncode == 0, f"{block.where}\n{ran.stderr}"


@pytest.mark.parametrize("block", by_kind("run", "json"))
def test_json_blocks_parse(block):
    json.loads(block.body)


@pytest.mark.parametrize("block", [pytest.param(b, id=b.where) for b in BLOCKS])
def test_dicehall_commands_in_blocks_exist_with_their_options(block):
    if block.lang not in ("sh", "bash"):
        return
    for line in shell_commands(block.body):
        for words in dicehall_invocations(line):
            assert not cli_problems(words), f"{block.where}: {cli_problems(words)}"


@pytest.mark.parametrize("doc", DOCS)
def test_inline_dicehall_commands_exist_with_their_options(doc):
    spans = inline_commands(doc)
    for span, words in spans:
        assert not cli_problems(words), f"{doc}: `{span}`: {cli_problems(words)}"


def test_inline_commands_catch_a_missing_required_option():
    assert cli_problems(["dicehall", "bot", "register", "NAME"]) == [
        "dicehall bot register: --owner is required"
    ]
    assert cli_problems(["dicehall", "play", "x", "--colour"]) == [
        "dicehall play: no option --colour"
    ]
    assert cli_problems(["dicehall", "fly"]) == ["dicehall fly: no such command"]


@pytest.mark.parametrize("block", by_kind("paths"))
def test_layout_blocks_name_existing_paths(block):
    paths = named_paths(block.body)
    assert len(paths) >= 5
    for path in paths:
        assert (ROOT / path).exists(), f"{block.where}: {path} does not exist"


@pytest.mark.parametrize("doc", [*DOCS, "engine/CONTRACT.md", *RULES_PAGES])
def test_files_the_docs_name_exist(doc):
    text = (ROOT / doc).read_text()
    assert "shared/rules" not in text and "GAME-DATA" not in text, (
        f"{doc} points at files outside the repository: cite rulebooks by title and edition"
    )
    for path in code_paths(doc):
        here = (ROOT / doc).parent / path
        assert (ROOT / path).exists() or here.exists(), f"{doc}: {path} does not exist"


@pytest.mark.parametrize("page", RULES_PAGES)
def test_rules_pages_cite_their_rulebook_by_title(page):
    first = (ROOT / page).read_text()[:800]
    assert re.search(r"[Rr]ulebook(:| is)\s+\*[^*]+\*", first), f"{page}: cite the rulebook's title"


def test_the_minimal_bot_has_the_number_of_lines_the_readme_says():
    claimed = re.search(r"minimal bot in (\d+) lines", (ROOT / "README.md").read_text())
    assert claimed, "README.md no longer says how long the minimal bot is"
    bot = next(b for b in blocks("docs/BOTS.md") if b.lang == "python")
    assert int(claimed.group(1)) == len(bot.body.rstrip("\n").splitlines())


def test_the_api_error_example_is_what_the_engine_answers():
    example = json.loads(next(b for b in blocks("docs/API.md") if b.lang == "json").body)
    state, _ = new_game()
    set_roll(state, ["cap", "band", "wall", "knight"])
    die = int(re.search(r"die (\d+)", example["detail"]).group(1))
    with pytest.raises(IllegalAction) as refused:
        CARCASSONNE.check(state, 0, {"type": "place", "die": die, "x": 0, "y": 0, "rotation": 0})
    assert (refused.value.code, refused.value.reason) == (example["rule"], example["detail"])


def test_the_sdk_signatures_the_client_readme_gives_are_the_real_ones():
    """``act(game_id, action, if_match=None, ...)`` in clients/README.md names only
    parameters the method has, its required ones first and in order (issue 17: the page once
    gave a signature that was not real)."""
    text = (ROOT / "clients" / "README.md").read_text()
    checked = 0
    for name, args in re.findall(r"`(\w+)\(([^`]*)\)`", text):
        method = getattr(Client, name, None)
        if method is None or not args:  # ``act()``: the method named, not its signature
            continue
        params = inspect.signature(method).parameters
        named = [a.split("=")[0].strip() for a in args.split(",") if a.strip()]
        for arg in named:
            if arg != "...":
                assert arg in params, f"clients/README.md: {name}({args}): no parameter {arg}"
        required = [
            p.name
            for p in params.values()
            if p.name != "self" and p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD
        ]
        if "..." not in named:
            assert named[: len(required)] == required, f"{name}({args}): needs {required}"
        checked += 1
    assert checked >= 5, "the page names the SDK's methods with their parameters"
