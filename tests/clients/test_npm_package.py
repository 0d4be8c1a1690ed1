"""The JavaScript client as npm ships it: `npm pack` makes a tarball of the package's own files
and nothing else, and TypeScript (package.json's devDependency, installed from npm into a
temporary folder) finds no error in clients/js/test/types/example.ts, which imports and uses
every export index.d.ts declares: checked in the repository (`tsc --noEmit`), then against the
packed tarball installed as a user installs it, where the example, compiled, runs on node.
node or npm missing is a failure naming it, never a skip."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "clients" / "js"
TYPES = JS / "test" / "types"
PACKAGE_JSON = json.loads((JS / "package.json").read_text(encoding="utf-8"))
NAME = PACKAGE_JSON["name"]


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: scripts/test installs nodejs, which brings npm")
    return found


def run(args: list[str], cwd: Path) -> str:
    """Runs a command; a failure shows what it printed."""
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def packed(tmp_path_factory) -> Path:
    """The tarball `npm pack` makes of clients/js, in a temporary folder."""
    folder = tmp_path_factory.mktemp("pack")
    out = run([tool("npm"), "pack", "--json", "--pack-destination", str(folder)], cwd=JS)
    return folder / json.loads(out)[0]["filename"]


@pytest.fixture(scope="module")
def tsc(tmp_path_factory) -> str:
    """TypeScript at package.json's devDependency version, installed outside the repository."""
    prefix = tmp_path_factory.mktemp("typescript")
    version = PACKAGE_JSON["devDependencies"]["typescript"]
    npm = [tool("npm"), "install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund"]
    run([*npm, "--prefix", str(prefix), f"typescript@{version}"], cwd=prefix)
    return str(prefix / "node_modules" / ".bin" / "tsc")


def test_the_tarball_holds_the_package_files_and_nothing_else(packed):
    with tarfile.open(packed) as tar:
        names = set(tar.getnames())
        shipped = json.loads(tar.extractfile("package/package.json").read())  # type: ignore[union-attr]
    sources = {f"package/src/{path.name}" for path in (JS / "src").iterdir() if path.is_file()}
    top = {"package/package.json", "package/index.d.ts", "package/README.md", "package/LICENSE"}
    assert names == top | sources
    assert shipped == PACKAGE_JSON
    assert packed.name == f"{NAME}-{PACKAGE_JSON['version']}.tgz"


def declared_exports() -> set[str]:
    text = (JS / "index.d.ts").read_text(encoding="utf-8")
    kinds = r"(?:function|const|class|type|interface)"
    return set(re.findall(rf"^export (?:declare )?{kinds} (\w+)", text, re.M))


def test_the_example_imports_every_export_index_d_ts_declares():
    """tsconfig's noUnusedLocals then makes each one used."""
    example = (TYPES / "example.ts").read_text(encoding="utf-8")
    lists = re.findall(rf'^import (?:type )?\{{([^}}]*)\}} from "{NAME}";', example, re.M)
    imported = {name.strip() for names in lists for name in names.split(",") if name.strip()}
    assert imported == declared_exports()
    assert len(imported) > 20


def test_tsc_finds_no_error_in_the_example(tsc):
    run([tsc, "--noEmit", "-p", str(TYPES)], cwd=JS)


def test_the_packed_package_installed_types_the_example_which_then_runs(packed, tsc, tmp_path):
    """A user's project: the tarball installed by npm, the example checked against the types the
    tarball holds, compiled, and run by node (it makes no request)."""
    user = tmp_path / "user"
    user.mkdir()
    (user / "package.json").write_text(json.dumps({"private": True, "type": "module"}))
    npm = [tool("npm"), "install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund"]
    run([*npm, str(packed)], cwd=user)
    for name in ("example.ts", "tsconfig.json"):
        shutil.copy(TYPES / name, user / name)
    run([tsc, "-p", str(user), "--noEmit", "false", "--outDir", str(user / "out")], cwd=user)
    run([tool("node"), str(user / "out" / "example.js")], cwd=user)
