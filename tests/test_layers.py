"""The layers of docs/architecture.md hold: no module imports from a layer above its own, Redis is
reached through storage alone, every key a script touches arrives in KEYS, and the domain library
loads no numpy until the odds are used. And the maps are true: each package's docstring names
its modules and what it may import, and docs/architecture.md's module map every module."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from api.storage.luascript import SCRIPTS

ROOT = Path(__file__).resolve().parent.parent

# The maps: each package's ``__init__`` docstring names every module and subpackage of its
# package as :mod:`.name` (or :mod:`package.name`), and a layer's docstring says what it may
# import in one sentence opening a line, "May import: :mod:`a`, :mod:`b` (why) ...": every
# :mod:`...` up to the sentence's full stop is a module of this project its modules may import
# (packages of other projects stay plain text). MAY_IMPORT is read from those sentences, so the
# docstring and the rule the tests keep cannot drift; docs/architecture.md's module map names
# every module of api/ and roads/ (see test_the_module_map_names_every_module_and_no_other).
LAYERS = (
    "roads",
    "api.codecs",
    "api.plan",
    "api.storage",
    "api.writes",
    "api.live",
    "api.images",
    "api.record",
    "api.http",
)
MODULE_ROLE = re.compile(r":mod:`~?([\w.]+)`")
MAY_IMPORT_SENTENCE = re.compile(r"^May import:(.*?)\.(?:\s|$)", re.MULTILINE | re.DOTALL)


def package_doc(package: str) -> str:
    init = ROOT.joinpath(*package.split("."), "__init__.py")
    return ast.get_docstring(ast.parse(init.read_text())) or ""


def may_import(layer: str) -> set[str]:
    """What ``layer``'s docstring says its modules may import of this project (its own modules
    always)."""
    sentence = MAY_IMPORT_SENTENCE.search(package_doc(layer))
    return {layer, *MODULE_ROLE.findall(sentence.group(1) if sentence else "")}


# Each layer, and what its modules may import of this project (any module of its own layer too).
MAY_IMPORT = {layer: may_import(layer) for layer in LAYERS}


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


PACKAGES = ("api", *(f"api.{p.parent.name}" for p in sorted(ROOT.glob("api/*/__init__.py"))))
PACKAGES += ("roads", "roads.integrity")


def members(package: str) -> set[str]:
    """The modules and subpackages of ``package``, by name."""
    folder = ROOT.joinpath(*package.split("."))
    return {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"} | {
        p.parent.name for p in folder.glob("*/__init__.py")
    }


def named(package: str) -> set[str]:
    """The modules of ``package`` its docstring names (:mod:`.name`, :mod:`package.name`)."""
    names = set()
    for name in MODULE_ROLE.findall(package_doc(package)):
        if name.startswith("."):
            names.add(name[1:].split(".")[0])
        elif name.startswith(package + "."):
            names.add(name.removeprefix(package + ".").split(".")[0])
    return names


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_docstring_names_its_modules_and_no_other(package):
    assert {
        "not named": sorted(members(package) - named(package)),
        "no such module": sorted(named(package) - members(package)),
    } == {"not named": [], "no such module": []}


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or path.joinpath("__init__.py").is_file()


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_may_import_what_its_modules_import_and_no_more(layer):
    """The "May import" sentence names modules that exist, each of them imported by a module of
    the layer (the arrows that are, not the ones that might be; that nothing else is imported
    is test_no_arrow_runs_up's)."""
    folder = ROOT.joinpath(*layer.split("."))
    used = {name for path in folder.rglob("*.py") for name in imported(path)}
    declared = may_import(layer) - {layer}
    assert MAY_IMPORT_SENTENCE.search(package_doc(layer))
    assert {
        "no such module": sorted(name for name in declared if not is_module(name)),
        "never imported": sorted(
            top
            for top in declared
            if not any(name == top or name.startswith(top + ".") for name in used)
        ),
    } == {"no such module": [], "never imported": []}


def map_rows() -> list[tuple[list[str], str]]:
    """docs/architecture.md's module map: each row's modules and its "may import" cell. The
    first cell names a module by its path from the root (`api/...`, `roads/...`; a folder ends
    in ``/``), then others in the same folder by name (`cards.py`); anything else (other files,
    globs) is not a module and not counted."""
    text = ROOT.joinpath("docs", "architecture.md").read_text()
    table = text.split("\n## Module map\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for row in table.splitlines():
        if not row.startswith("| `"):
            continue
        cells = [cell.strip() for cell in row.strip().strip("|").split(" | ")]
        folder, paths = "", []
        for token in re.findall(r"`([^`]+)`", cells[0]):
            if token.startswith(("api/", "roads/")):
                folder = token if token.endswith("/") else token.rpartition("/")[0] + "/"
                if token.endswith(".py"):
                    paths.append(token)
            elif token.endswith(".py") and "/" not in token and folder:
                paths.append(folder + token)
        rows.append((paths, cells[-1]))
    return rows


def test_the_module_map_names_every_module_and_no_other():
    mapped = [path for paths, _ in map_rows() for path in paths]
    modules = {
        str(path.relative_to(ROOT))
        for top in ("api", "roads")
        for path in ROOT.joinpath(top).rglob("*.py")
        if path.name != "__init__.py"
    }
    assert {
        "not in the map": sorted(modules - set(mapped)),
        "no such module": sorted(p for p in mapped if not ROOT.joinpath(p).is_file()),
        "twice": sorted({p for p in mapped if mapped.count(p) > 1}),
    } == {"not in the map": [], "no such module": [], "twice": []}


def modules_imported(path: Path) -> set[str]:
    """The modules of this project ``path`` imports, a module taken from a package as itself
    (``from api import envvalues``: ``api.envvalues``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            members = {f"{node.module}.{alias.name}" for alias in node.names}
            names |= members if all(map(is_module, members)) else {node.module}
    return {name for name in names if name.split(".")[0] in ("api", "roads")}


def test_each_row_of_the_module_map_may_import_what_its_modules_import():
    """A row's "may import" cell names, in backquotes, what its modules import beyond their own
    package and the row's other modules: packages and modules of api/ by their names there
    (`codecs`, `http.traffic`), `roads` and its modules by theirs. A module directly in api/
    has no package of its own here; `api/__init__.py` may import "everything above"."""
    wrong = []
    for paths, cell in map_rows():
        if cell == "everything above":
            continue
        named_here = {
            name if name.split(".")[0] == "roads" else f"api.{name}"
            for name in re.findall(r"`([\w.]+)`", cell)
            if not name.endswith(".py")
        }
        named_here |= {path.removesuffix(".py").replace("/", ".") for path in paths}
        for path in paths:
            package = path.rpartition("/")[0].replace("/", ".")
            may = named_here | ({package} if package != "api" else set())
            if ROOT.joinpath(path).is_file():
                wrong += [
                    f"{path} imports {name}"
                    for name in sorted(modules_imported(ROOT.joinpath(path)))
                    if not any(name == top or name.startswith(top + ".") for top in may)
                ]
    assert wrong == []


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


def roads_arrows() -> dict[str, set[str]]:
    """Each module of roads/ (a package by its own name: ``roads.integrity``) and the modules of
    roads/ it imports, at the top or inside a function alike: ``from roads import snapshot`` is
    an arrow to ``roads.snapshot``, ``from roads import Scorecard`` one to ``roads``."""
    modules = {}
    for path in sorted(ROOT.joinpath("roads").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    arrows = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level else ""
                source = ".".join(part for part in (base, node.module) if part)
                for alias in node.names:
                    member = f"{source}.{alias.name}"
                    found.add(member if member in modules else source)
        arrows[name] = {other for other in found if other in modules and other != name}
    return arrows


def test_the_domain_library_has_no_import_circle():
    """No module of roads/ comes back to itself through its imports, lazy ones included: in a
    circle neither module is the lower one, and which loads first depends on who asks."""
    arrows, done, circles = roads_arrows(), set(), []

    def follow(name: str, path: list[str]) -> None:
        if name in path:
            circles.append(" -> ".join([*path[path.index(name) :], name]))
        elif name not in done:
            for other in sorted(arrows[name]):
                follow(other, [*path, name])
            done.add(name)

    for name in sorted(arrows):
        follow(name, [])
    assert len(arrows) > 40 and circles == []


def test_the_domain_core_imports_nothing_of_the_integrity_watch():
    """roads/integrity/ stands above the rest of roads/: it imports the core, never the reverse."""
    upward = [
        f"{name} imports {other}"
        for name, others in sorted(roads_arrows().items())
        if name.split(".")[:2] != ["roads", "integrity"]
        for other in sorted(others)
        if other.split(".")[:2] == ["roads", "integrity"]
    ]
    assert upward == []


def test_every_format_lua_writes_for_python_is_a_codec_with_both_halves():
    """A format that crosses between Lua and Python is a module of api/codecs with its Lua half
    beside it (same name), each Lua half joined into a script by its ``uses``; outside
    api/codecs, the Lua files are scripts beside the storage module that wraps them."""
    codecs = ROOT / "api" / "codecs"
    halves = {path.stem for path in codecs.glob("*.lua")}
    assert halves and all((codecs / f"{stem}.py").is_file() for stem in halves)
    used = {part.name for script in SCRIPTS for part in script.parts[:-1]}
    assert {f"api/codecs/{stem}.lua" for stem in halves} <= used
    outside = sorted(
        str(path.relative_to(ROOT))
        for path in ROOT.joinpath("api").rglob("*.lua")
        if path.parent != codecs
        and path.name != "prelude.lua"
        and str(path.relative_to(ROOT)) in used
    )
    # The one fragment that is not a format: the watch's part of the lobby script, behaviour
    # kept beside the storage module that passes its keys.
    assert outside == ["api/storage/integrity/watchapply.lua"]


def test_the_domain_library_knows_no_storage_format():
    """roads/ parses and writes no entry of Redis or the record: no module of it names a Redis
    command or imports anything of api/ (the codecs hold the formats)."""
    commands = re.compile(r"['\"](RPUSH|LPUSH|HSET|XADD|LRANGE|HGET|SET)['\"]")
    found = [
        str(path.relative_to(ROOT))
        for path in ROOT.joinpath("roads").rglob("*.py")
        if commands.search(path.read_text())
        or re.search(r"^\s*(from|import) api\b", path.read_text(), re.M)
    ]
    assert found == []
