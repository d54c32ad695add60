"""Speed figures for the course, printed in one run: ``python benchmarks/run.py``.

Each figure is a median over repeated runs, printed beside its target:

* import of ``lessons_lib`` in a fresh interpreter, minus the bare interpreter start (< 0.3 s);
* one full offline loop, ``lessons_lib.engine.host.run_chain()`` (< 50 ms, warm);
* the slider redraw, ``head_view(5)`` plus its mime bundle (< 100 ms), cached and at a new head;
* building the slider lab, ``head_lab()`` plus its mime bundle (< 1 s), with the run caches
  empty but the SDKs loaded, as in lesson 09; for reference also in a fresh process;
* ``redact`` (the key cleaner of every live run) on 1 MB of text (< 50 ms): lesson text with
  the key, fragments of it and masked echoes spread through it; for reference also 1 MB of one
  long key-like run and 1 MB made of the key's own 4-character blocks (the slowest input);
* the nbval suite over ``notebooks/`` against the one-run floor: as many one-cell notebooks that
  each import ``lessons_lib`` and run ``run_chain()`` once (both real SDKs imported, since every
  lesson runs the real chain): the ratio should stay within 1.5x (GUIDE section 5). The empty
  floor (one-cell notebooks that only ``pass``: kernel starts and the plugin) is printed for
  reference, with the one-run floor's share of it.

A figure whose code is missing prints ``not available: <reason>`` instead of stopping the run.
``--check`` exits 1 when a measured figure misses its target.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
SANITIZE = REPO / "tests" / "nbval_sanitize.cfg"


@dataclass
class Figure:
    name: str
    seconds: float | None = None
    target: float | None = None  # seconds, or a ratio when ratio=True
    ratio: bool = False
    note: str = ""

    @property
    def ok(self) -> bool | None:
        if self.seconds is None or self.target is None:
            return None
        return self.seconds < self.target


class NotAvailable(Exception):
    """The code this figure measures is not there (yet)."""


def median_time(
    fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    samples = []
    for _ in range(repeat):
        start = clock()
        fn()
        samples.append(clock() - start)
    return statistics.median(samples)


def _run(cmd: list[str], cwd: Path | None = None, failures: list[str] | None = None) -> float:
    """Wall time of one command; a failure raises, or is noted in ``failures`` when given."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        message = f"`{' '.join(cmd[1:4])} ...` exited {proc.returncode}: {_last_line(proc)}"
        if failures is None:
            raise NotAvailable(message)
        failures.append(message)
    return elapsed


def _last_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    return lines[-1] if lines else "(no output)"


# --------------------------------------------------------------------------- figures


def bench_import(repeat: int) -> list[Figure]:
    """Fresh-process import time, interleaved with bare starts so both see the same machine."""
    bare, imported = [], []
    for _ in range(repeat):
        bare.append(_run([sys.executable, "-c", "pass"]))
        imported.append(_run([sys.executable, "-c", "import lessons_lib"]))
    start, total = statistics.median(bare), statistics.median(imported)
    return [
        Figure("import lessons_lib (minus interpreter start)", total - start, 0.3),
        Figure("  bare interpreter start (for reference)", start, note="python -c pass"),
    ]


def bench_loop(repeat: int) -> list[Figure]:
    try:
        from lessons_lib.engine.host import run_chain
    except ImportError as exc:
        raise NotAvailable(f"lessons_lib.engine.host.run_chain: {exc}") from exc
    start = time.perf_counter()
    trace = run_chain()
    cold = time.perf_counter() - start
    note = f"answer: {'yes' if getattr(trace, 'answer', None) else 'no'}"
    return [
        Figure("offline loop run_chain() (warm)", median_time(run_chain, repeat), 0.05, note=note),
        Figure("  first run_chain() in the process", cold, note="includes loading openai, mcp"),
    ]


def _head_view() -> Callable[..., Any]:
    """``head_view`` from wherever the what-if code keeps it."""
    import importlib

    for module, name in (
        ("lessons_lib.examples.files.widgets", "head_view"),
        ("lessons_lib.examples.files.whatif", "head_view"),
    ):
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if callable(found):
            return found  # type: ignore[no-any-return]
    raise NotAvailable(
        "head_view is in neither lessons_lib.examples.files.whatif nor lessons_lib.examples.files.widgets"
    )


REDACT_KEY = "sk-test-Qz7rTn4WbX9kLm2PvS8dHc5JfY3gNa6E"
MEGABYTE = 1_000_000


def _redact_texts() -> dict[str, str]:
    notes = (REPO / "data" / "workspace" / "notes.txt").read_text(encoding="utf-8")
    secret = REDACT_KEY[8:]
    leaks = f" {REDACT_KEY} {secret[3:14]} {REDACT_KEY[:11]}******{REDACT_KEY[-4:]} "
    chunk = notes + leaks
    mixed = (chunk * (MEGABYTE // len(chunk) + 1))[:MEGABYTE]
    blocks = ((secret[:4] + "x") * (MEGABYTE // 5 + 1))[:MEGABYTE]
    return {"lesson text with leaks": mixed, "one key-like run": "x" * MEGABYTE, "key blocks": blocks}


def bench_redact(repeat: int) -> list[Figure]:
    try:
        from lessons_lib.engine.redact import redact
    except ImportError as exc:
        raise NotAvailable(f"lessons_lib.engine.redact: {exc}") from exc
    texts = _redact_texts()
    cleaned = redact(texts["lesson text with leaks"], REDACT_KEY)
    note = "CPU time; key left: " + ("yes" if REDACT_KEY[8:16] in cleaned else "no")
    # CPU time of this thread: redact is pure computation, and on a shared machine the wall
    # clock would mostly measure the other processes.
    clock = time.thread_time
    figures = [
        Figure(
            "redact 1 MB (lesson text with leaks)",
            median_time(lambda: redact(texts["lesson text with leaks"], REDACT_KEY), repeat, clock),
            0.05,
            note=note,
        )
    ]
    for name in ("one key-like run", "key blocks"):
        text = texts[name]
        seconds = median_time(lambda text=text: redact(text, REDACT_KEY), repeat, clock)  # type: ignore[misc]
        figures.append(Figure(f"  redact 1 MB ({name})", seconds, note="CPU time, for reference"))
    return figures


def bench_redraw(repeat: int) -> list[Figure]:
    head_view = _head_view()

    def redraw(head: int) -> None:
        view = head_view(head)
        bundle = getattr(view, "_repr_mimebundle_", None)
        if bundle is not None:
            bundle()  # what the Output widget receives: the drawn view, not just the data

    start = time.perf_counter()
    redraw(5)
    cold = time.perf_counter() - start
    cached = median_time(lambda: redraw(5), repeat)
    # a head not seen before runs the loop once more (the slider's usual case)
    fresh_heads = iter([h for h in range(1, 37) if h not in (5, 20)])
    fresh = median_time(lambda: redraw(next(fresh_heads)), min(repeat, 30))
    return [
        Figure("slider redraw head_view(5) (cached run)", cached, 0.1),
        Figure("slider redraw at a new head (runs the loop)", fresh, 0.1),
        Figure("  first head_view(5) in the process", cold, note="baseline + head=5 runs, imports"),
    ]


LAB_FRESH_SOURCE = """\
import time
start = time.perf_counter()
import lessons_lib
lessons_lib.head_lab()._repr_mimebundle_()
print(time.perf_counter() - start)
"""


def bench_lab(repeat: int) -> list[Figure]:
    """``head_lab()`` builds the baseline only; every other head runs when first selected."""
    try:
        from lessons_lib.examples.files import whatif, widgets
    except ImportError as exc:
        raise NotAvailable(f"lessons_lib.examples.files.widgets: {exc}") from exc
    head_lab = getattr(widgets, "head_lab", None)
    if head_lab is None:
        raise NotAvailable("lessons_lib.examples.files.widgets.head_lab is missing")
    head_lab()  # load the SDKs and ipywidgets once, as the lesson's earlier cells have

    def build() -> None:
        whatif._cached.cache_clear()  # no run cached: the lab must run its baseline itself
        getattr(whatif, "_RUN", set()).clear()
        head_lab()._repr_mimebundle_()

    built = median_time(build, max(1, min(repeat, 5)))
    fresh = []
    for _ in range(max(1, min(repeat, 3))):
        proc = subprocess.run([sys.executable, "-c", LAB_FRESH_SOURCE], capture_output=True, text=True)
        if proc.returncode != 0:
            raise NotAvailable(f"head_lab() in a fresh process: {_last_line(proc)}")
        fresh.append(float(proc.stdout.strip().splitlines()[-1]))
    return [
        Figure("head_lab() build (SDKs loaded, no run cached)", built, 1.0, note="runs the baseline only"),
        Figure("  head_lab() in a fresh process", statistics.median(fresh), note="imports included"),
    ]


def bench_parallel(repeat: int) -> list[Figure]:
    """Three calls of 200 ms each in one turn (lesson 31): concurrent, then one per reply."""
    try:
        from lessons_lib.examples.orders.lab import run_scenario
    except ImportError as exc:
        raise NotAvailable(f"lessons_lib.examples.orders.lab.run_scenario: {exc}") from exc
    run_scenario("three_parallel")  # warm: imports, the first schema compile
    runs = max(1, min(repeat, 5))
    concurrent = statistics.median(sum(run_scenario("three_parallel").turn_seconds) for _ in range(runs))
    one_by_one = statistics.median(
        sum(run_scenario("three_parallel", parallel=False).turn_seconds) for _ in range(runs)
    )
    return [
        Figure("three 200 ms calls in one turn (parallel)", concurrent, 0.4),
        Figure("  the same calls one per reply (sequential)", one_by_one, note="parallel_tool_calls=false"),
        Figure(
            "  parallel / sequential tool time",
            concurrent / one_by_one,
            ratio=True,
            note="about 1/3 if concurrent",
        ),
    ]


FLOOR_SOURCE = "pass"
SDK_FLOOR_SOURCE = "import lessons_lib\n\n_ = lessons_lib.run_chain()"


def _one_cell_notebook(source: str) -> dict[str, Any]:
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "id": "floor",
        "metadata": {},
        "outputs": [],
        "source": source,
    }
    return {
        "cells": [cell],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def bench_nbval(repeat: int, workers: int) -> list[Figure]:
    # both editions (notebooks/ and notebooks/en/, which pytest collects together): the floor
    # counts as many one-run notebooks as the suite runs lessons (issue 28)
    notebooks = sorted(NOTEBOOKS.glob("*.ipynb")) + sorted(NOTEBOOKS.glob("en/*.ipynb"))
    if not notebooks:
        raise NotAvailable("no notebooks in notebooks/")
    if not SANITIZE.exists():
        raise NotAvailable(f"{SANITIZE.relative_to(REPO)} is missing")
    # the same plug-ins for the suite and the floor (the floor's folder has no pyproject.toml);
    # no tests/ argument, so no conftest: plain kernels in both, never tests/_forkkernel.py's
    flags = ["-q", "-p", "no:cacheprovider", "-p", "lessons_lib.engine.lazyschema"]
    flags += ["--nbval", "--nbval-current-env"]
    flags += ["--nbval-sanitize-with", str(SANITIZE)]
    if workers > 1:
        flags += ["-n", str(workers), "--dist", "loadfile"]
    pytest = [sys.executable, "-m", "pytest", *flags]
    with tempfile.TemporaryDirectory(prefix="nbval_floor_") as tmp:
        empty, sdk = Path(tmp, "empty"), Path(tmp, "sdk")
        for folder, source in ((empty, FLOOR_SOURCE), (sdk, SDK_FLOOR_SOURCE)):
            folder.mkdir()
            for i in range(len(notebooks)):
                Path(folder, f"nb_{i:02d}.ipynb").write_text(json.dumps(_one_cell_notebook(source)))
        suite, floor, sdk_floor, failed = [], [], [], []
        for _ in range(repeat):  # interleaved, so that all three see the same machine
            floor.append(_run([*pytest, str(empty)], cwd=Path(tmp)))
            sdk_floor.append(_run([*pytest, str(sdk)], cwd=Path(tmp), failures=failed))
            suite.append(_run([*pytest, "notebooks"], cwd=REPO, failures=failed))
    s, f, r = statistics.median(suite), statistics.median(floor), statistics.median(sdk_floor)
    n = len(notebooks)
    note = f"a suite FAILED: {failed[-1]}" if failed else ""
    return [
        Figure(f"nbval suite ({n} notebooks, -n {workers})", s, note=note),
        Figure(f"  one-run floor: {n} x one run_chain()", r, note="real openai, mcp SDKs"),
        Figure(f"  empty floor: {n} one-cell notebooks", f, note="kernel starts + plugin load"),
        Figure("nbval suite / one-run floor", s / r, 1.5, ratio=True, note="the lessons' own work"),
        Figure("  nbval suite / empty floor", s / f, ratio=True, note="for reference"),
        Figure("  one-run floor / empty floor", r / f, ratio=True, note="the SDKs' share"),
    ]


# --------------------------------------------------------------------------- report


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def show(fig: Figure) -> str:
    if fig.seconds is None:
        value = "-"
    elif fig.ratio:
        value = f"{fig.seconds:.2f}x"
    else:
        value = f"{fig.seconds * 1000:.1f} ms" if fig.seconds < 1 else f"{fig.seconds:.2f} s"
    if fig.target is None:
        target, status = "", ""
    else:
        target = f"< {fig.target:.1f}x" if fig.ratio else f"< {fig.target * 1000:.0f} ms"
        status = "ok" if fig.ok else "OVER"
    return f"{fig.name:<48} {value:>11}  {target:<9} {status:<4} {fig.note}".rstrip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=15, help="runs per in-process figure (default 15)")
    parser.add_argument("--nbval-repeat", type=int, default=3, help="runs of each nbval suite (default 3)")
    parser.add_argument("--workers", type=int, default=2, help="xdist workers for nbval (default 2, as CI)")
    parser.add_argument("--skip-nbval", action="store_true", help="leave out the (slow) nbval figures")
    parser.add_argument("--check", action="store_true", help="exit 1 if a measured figure misses its target")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.nbval_repeat < 1:
        parser.error("--repeat and --nbval-repeat must be at least 1")

    print(f"lessons_lib benchmarks on {machine()}")
    print(f"medians: {args.repeat} runs in process, {args.nbval_repeat} runs per nbval suite\n")
    benches: list[tuple[str, Callable[[], list[Figure]]]] = [
        ("import lessons_lib", lambda: bench_import(args.repeat)),
        ("offline loop run_chain()", lambda: bench_loop(args.repeat)),
        ("slider redraw head_view(5)", lambda: bench_redraw(args.repeat)),
        ("head_lab() build", lambda: bench_lab(args.repeat)),
        ("redact 1 MB", lambda: bench_redact(args.repeat)),
        ("three parallel order-desk calls", lambda: bench_parallel(args.repeat)),
    ]
    if not args.skip_nbval:
        benches.append(("nbval suite / one-run floor", lambda: bench_nbval(args.nbval_repeat, args.workers)))
    figures: list[Figure] = []
    for title, bench in benches:
        try:
            got = bench()
        except NotAvailable as exc:
            got = [Figure(title, note=f"not available: {exc}")]
        except Exception as exc:  # a broken API must not hide the other figures
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            got = [Figure(title, note=f"not available: {last}")]
        for fig in got:
            print(show(fig), flush=True)
        figures += got
    missed = [f.name for f in figures if f.ok is False]
    print(f"\n{len(missed)} figure(s) over target" + (f": {', '.join(missed)}" if missed else ""))
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
