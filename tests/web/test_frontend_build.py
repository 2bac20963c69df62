"""The pages' committed JavaScript is the build of their TypeScript, typed by the current
``openapi.yaml``: a change to the contract or the sources without a rebuild fails here.

Needs the front end's tools: ``npm ci --prefix service/web/frontend`` (``.ci/run`` does it).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "service" / "web" / "frontend"
BUILT = ROOT / "service" / "web" / "static" / "js"


def tool(name: str) -> str:
    path = FRONTEND / "node_modules" / ".bin" / name
    assert path.exists(), f"no {name}: run npm ci --prefix service/web/frontend"
    return str(path)


def test_the_committed_types_are_generated_from_the_current_openapi_yaml(tmp_path: Path) -> None:
    fresh = tmp_path / "schema.d.ts"
    subprocess.run(
        [tool("openapi-typescript"), str(ROOT / "openapi.yaml"), "-o", str(fresh)],
        check=True,
        capture_output=True,
        cwd=FRONTEND,
    )
    committed = FRONTEND / "src" / "schema.d.ts"
    assert fresh.read_text() == committed.read_text(), (
        "run: cd service/web/frontend && npm run build"
    )


def test_the_committed_javascript_is_the_build_of_the_typescript(tmp_path: Path) -> None:
    built = subprocess.run(
        [tool("tsc"), "-p", str(FRONTEND), "--outDir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=FRONTEND,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    fresh = {p.name: p.read_text() for p in tmp_path.glob("*.js")}
    committed = {p.name: p.read_text() for p in BUILT.glob("*.js")}
    assert fresh == committed, "run: cd service/web/frontend && npm run build"
