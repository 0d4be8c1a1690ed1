"""The layers of docs/architecture.md hold: no module imports from a layer above its own, Redis is
reached through storage alone, every key a script touches arrives in KEYS, and the domain library
loads no numpy until the odds are used."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from api.storage.scripts import SCRIPTS

ROOT = Path(__file__).resolve().parent.parent

# Each layer, and what its modules may import of this project (any module of its own layer too).
MAY_IMPORT = {
    "roads": {"roads"},
    "api.codecs": {"roads", "api.codecs"},
    "api.plan": {"roads", "api.codecs", "api.plan"},
    "api.storage": {"roads", "api.codecs", "api.plan", "api.storage", "api.config", "api.metrics"},
    "api.writes": {"roads", "api.codecs", "api.plan", "api.storage", "api.writes"},
    "api.live": {"roads", "api.codecs", "api.live", "api.storage", "api.config", "api.metrics"},
    "api.images": {"roads", "api.images", "api.admission"},
    "api.record": {
        "roads",
        "api.codecs",
        "api.storage",
        "api.live",
        "api.record",
        "api.config",
        "api.metrics",
        "api.logs",
    },
    "api.http": {
        "roads",
        "api.codecs",
        "api.writes",
        "api.http",
        "api.services",
        "api.storage",
        "api.live",
        "api.images",
        "api.admission",
        "api.record",
        "api.config",
        "api.metrics",
        "api.logs",
        "api.accesslog",
    },
}


def imported(path: Path, *, everything: bool = False) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names if everything else {n for n in names if n.split(".")[0] in ("api", "roads")}


def allowed(name: str, layer: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in MAY_IMPORT[layer])


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_no_arrow_runs_up(layer):
    folder = ROOT.joinpath(*layer.split("."))
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted(folder.rglob("*.py"))
        for name in sorted(imported(path))
        if not allowed(name, layer)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "layer",
    ["api.codecs", "api.plan", "api.storage", "api.writes", "api.live", "api.record", "api.http"],
)
def test_each_layer_says_what_it_holds_and_may_import(layer):
    doc = ast.get_docstring(ast.parse(ROOT.joinpath(*layer.split("."), "__init__.py").read_text()))
    assert doc and "May import" in doc


@pytest.mark.parametrize(
    ("clients", "package"),
    [(("redis", "fakeredis"), "storage"), (("psycopg", "psycopg_pool"), "record")],
)
def test_each_store_is_reached_through_one_package(clients, package):
    """Redis through api/storage alone, PostgreSQL through api/record alone."""
    outside = [
        str(path.relative_to(ROOT))
        for folder in ("api", "roads")
        for path in sorted(ROOT.joinpath(folder).rglob("*.py"))
        if package not in path.parts
        and any(name.split(".")[0] in clients for name in imported(path, everything=True))
    ]
    assert outside == []


def test_only_the_transport_holds_the_client():
    pattern = re.compile(r"\.client\b|_plain\(")
    holders = [
        str(path.relative_to(ROOT))
        for path in sorted(ROOT.joinpath("api").rglob("*.py"))
        if path.name != "transport.py" and pattern.search(path.read_text())
    ]
    assert holders == []


# A call's first argument after the command: the key it touches.
CALL = re.compile(r"redis\.call\('(\w+)',\s*([^,)]+)")
# What a key may be: KEYS[...], or a local variable bound to one (``last_of``, ``grown[road]``).
KEY = re.compile(r"KEYS\[[^\]]+\]|[a-z_]+(\[[a-z_]+\])?")


def test_every_key_a_script_touches_arrives_in_keys():
    built = [
        (command, key.strip())
        for script in SCRIPTS
        for command, key in CALL.findall(script.source)
        if command not in ("PUBLISH",) and not KEY.fullmatch(key.strip())
    ]
    assert built == []
    assert len(CALL.findall("".join(script.source for script in SCRIPTS))) > 50  # all read


def test_the_domain_library_loads_no_numpy_until_the_odds_are_used():
    check = "import sys, roads; assert 'numpy' not in sys.modules; import roads.odds"
    subprocess.run([sys.executable, "-c", check], check=True, cwd=ROOT)
