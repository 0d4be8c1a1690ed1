"""The README's Benchmarks section names every benchmark a newcomer can run, and nothing else:
a benchmark added without its line (nine of them once were) is found here, not by a reader."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def runnable() -> set[str]:
    """The benchmarks' scripts: the files of benchmarks/ run as a program (the rest are their
    helpers: the servers, the load generators, the probes)."""
    scripts = (ROOT / "benchmarks").glob("*.py")
    return {path.name for path in scripts if 'if __name__ == "__main__":' in path.read_text()}


def listed() -> set[str]:
    """The scripts the README's Benchmarks section runs, in its shell block."""
    section = README.read_text().split("\n## Benchmarks\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    assert block, "the Benchmarks section opens with a shell block"
    return set(re.findall(r"benchmarks/(\w+\.py)", block.group(1)))


def test_every_benchmark_is_listed_and_every_listed_one_exists():
    scripts, named = runnable(), listed()
    assert scripts, "benchmarks/ holds scripts"
    assert named == scripts, {
        "not in the README": sorted(scripts - named),
        "in the README, not a benchmark": sorted(named - scripts),
    }
