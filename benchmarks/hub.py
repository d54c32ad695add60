"""A class on one machine: N learners run lessons 03 and 09 at once on a real JupyterHub.

``python benchmarks/hub.py`` (``--learners 1 2 4 8`` by default). For each N a fresh hub (the
harness of ``tests/platform/test_hub.py``: ``benchmarks/hubkit.py``) starts N learners' servers, and
every learner runs both lessons, in order, through the hub's proxy, all learners at the same
time. Printed per N:

* memory per learner: the peak RSS of the learner's server plus its kernel (sampled every
  0.5 s with psutil), and the same as PSS (shared pages split between the processes that map
  them, the honest figure to add up for a class);
* CPU seconds per lesson and learner (server + kernel, user + system);
* the slowest cell's wall time, and the wall time of the whole round;
* the hub's and the proxy's own RSS.

Then a sizing line for a class of 30 and of 300, extrapolated from the largest N.
Needs jupyterhub, psutil and configurable-http-proxy (see ``tests/platform/test_hub.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import hubkit
from run import machine

LESSONS = ("03_minimal_walkthrough.ipynb", "09_what_if.ipynb")
SAMPLE_SECONDS = 0.5  # memory only grows while a lesson runs; smaps reads cost CPU
RUN_ALL_TARGET = 10.0  # seconds a lesson's Run All may take when the whole class presses it at once
STEADY_SECONDS = 300  # the steady pace: each learner runs one whole lesson every five minutes


@dataclass
class LearnerFigures:
    peak_rss: int = 0
    peak_pss: int = 0
    idle_pss: int = 0  # the server alone, after its kernels have shut down
    cpu_per_lesson: dict[str, float] = field(default_factory=dict)
    slowest_cell: tuple[float, str] = (0.0, "")
    lesson_seconds: dict[str, float] = field(default_factory=dict)


def _tree(pid: int) -> list[object]:
    import psutil

    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a server, its live children and the children it has reaped (old kernels)."""
    import psutil

    total = 0.0
    for index, proc in enumerate(_tree(pid)):
        try:
            t = proc.cpu_times()  # type: ignore[attr-defined]
        except psutil.Error:
            continue
        total += t.user + t.system + (t.children_user + t.children_system if index == 0 else 0.0)
    return total


def _tree_memory(pid: int) -> tuple[int, int]:
    import psutil

    rss = pss = 0
    for proc in _tree(pid):
        try:
            info = proc.memory_full_info()  # type: ignore[attr-defined]
        except psutil.Error:
            continue
        rss, pss = rss + info.rss, pss + getattr(info, "pss", info.rss)
    return rss, pss


class Sampler(threading.Thread):
    """Peak memory of every learner's process tree while the class runs."""

    def __init__(self, pids: dict[str, int], figures: dict[str, LearnerFigures]) -> None:
        super().__init__(daemon=True)
        self.pids, self.figures, self.stop = pids, figures, threading.Event()

    def run(self) -> None:
        while not self.stop.wait(SAMPLE_SECONDS):
            for name, pid in self.pids.items():
                rss, pss = _tree_memory(pid)
                fig = self.figures[name]
                fig.peak_rss, fig.peak_pss = max(fig.peak_rss, rss), max(fig.peak_pss, pss)


async def _learner(hub: hubkit.Hub, learner: hubkit.Learner, fig: LearnerFigures) -> None:
    import nbformat

    for lesson in LESSONS:
        nb = nbformat.read(hubkit.NOTEBOOKS / lesson, as_version=4)
        cpu, start = _tree_cpu(learner.server_pid), time.perf_counter()
        runs, _ = await hubkit.run_notebook(hub.server_url(learner.name), learner.token, nb, timeout=600)
        fig.lesson_seconds[lesson] = time.perf_counter() - start
        fig.cpu_per_lesson[lesson] = _tree_cpu(learner.server_pid) - cpu
        broken = [f"cell {r.index}: {r.status}" for r in runs if r.status != "ok"]
        if broken:
            raise RuntimeError(f"{learner.name}, {lesson}: {broken}")
        slowest = max(runs, key=lambda r: r.seconds)
        if slowest.seconds > fig.slowest_cell[0]:
            fig.slowest_cell = (slowest.seconds, f"{lesson[:2]} cell {slowest.index}")


def one_round(n: int, proxy: Path) -> tuple[dict[str, LearnerFigures], float, int]:
    """(figures per learner, wall seconds of the round, RSS of hub + proxy) for N learners."""
    names = [f"learner{i:02d}" for i in range(1, n + 1)]
    figures = {name: LearnerFigures() for name in names}
    with (
        tempfile.TemporaryDirectory(prefix="lessons-hub-bench-") as work,
        hubkit.Hub(Path(work), proxy) as hub,
    ):
        learners = asyncio.run(hub.add_learners(names))
        sampler = Sampler({lr.name: lr.server_pid for lr in learners}, figures)
        sampler.start()
        start = time.perf_counter()

        async def everyone() -> None:
            await asyncio.gather(*(_learner(hub, lr, figures[lr.name]) for lr in learners))

        try:
            asyncio.run(everyone())
        finally:
            sampler.stop.set()
            sampler.join()
        wall = time.perf_counter() - start
        for lr in learners:
            figures[lr.name].idle_pss = _tree_memory(lr.server_pid)[1]
        assert hub.process is not None
        learner_pids = {p.pid for lr in learners for p in _tree(lr.server_pid)}  # type: ignore[attr-defined]
        base = [p.pid for p in _tree(hub.process.pid) if p.pid not in learner_pids]  # type: ignore[attr-defined]
        base_rss = _base_rss(base)
    return figures, wall, base_rss


def _base_rss(pids: list[int]) -> int:
    """RSS of the hub and the proxy (the processes under the hub that belong to no learner)."""
    import psutil

    total = 0
    for pid in pids:
        try:
            total += psutil.Process(pid).memory_info().rss
        except psutil.Error:
            continue
    return total


def _mib(n: float) -> str:
    return f"{n / 2**20:.0f} MiB"


def report(n: int, figures: dict[str, LearnerFigures], wall: float, base_rss: int) -> dict[str, float]:
    rss = [f.peak_rss for f in figures.values()]
    pss = [f.peak_pss for f in figures.values()]
    idle = statistics.median(f.idle_pss for f in figures.values())
    cpu = {
        lesson: statistics.median(f.cpu_per_lesson[lesson] for f in figures.values()) for lesson in LESSONS
    }
    slowest = max(f.slowest_cell for f in figures.values())
    lesson_wall = {lesson: max(f.lesson_seconds[lesson] for f in figures.values()) for lesson in LESSONS}
    print(
        f"N={n}: per learner peak RSS {_mib(statistics.median(rss))} (max {_mib(max(rss))}), "
        f"PSS {_mib(statistics.median(pss))} (server alone {_mib(idle)}); CPU s per lesson "
        + ", ".join(f"{lesson[:2]} {s:.1f}" for lesson, s in cpu.items())
        + f"; slowest cell {slowest[0]:.2f} s ({slowest[1]}); lesson wall max "
        + ", ".join(f"{lesson[:2]} {s:.1f} s" for lesson, s in lesson_wall.items())
        + f"; round {wall:.1f} s; hub + proxy RSS {_mib(base_rss)}",
        flush=True,
    )
    return {"pss": max(pss), "rss": max(rss), "idle": idle, "cpu": max(cpu.values()), "base": base_rss}


def sizing(largest: dict[str, float], n: int) -> None:
    """A class of 30 and 300, extrapolated linearly from the largest measured N."""
    kernel = largest["pss"] - largest["idle"]
    print(f"\nsizing, extrapolated from N={n} on this machine (linear in learners):")
    for size in (30, 300):
        one = largest["base"] + size * largest["pss"]
        two = one + size * kernel
        peak = size * largest["cpu"] / RUN_ALL_TARGET
        steady = size * largest["cpu"] / STEADY_SECONDS
        print(
            f"  class of {size}: memory {one / 2**30:.1f} GiB with one lesson open each "
            f"(hub + proxy + {size} x {_mib(largest['pss'])} PSS), {two / 2**30:.1f} GiB with two; "
            f"cores {math.ceil(peak)} when everyone's Run All of a lesson ({largest['cpu']:.1f} CPU s) "
            f"must end within {RUN_ALL_TARGET:.0f} s, {steady:.1f} at one lesson per learner "
            f"every {STEADY_SECONDS // 60} min"
        )
    print(
        f"  (a further open lesson is one more kernel, {_mib(kernel)} PSS; by RSS one lesson is "
        f"{_mib(largest['rss'])}, which counts shared pages once per process)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--learners", type=int, nargs="+", default=[1, 2, 4, 8], help="N values to run")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.learners):
        parser.error("--learners takes positive numbers")
    proxy = hubkit.find_proxy()
    if proxy is None:
        print("configurable-http-proxy not found: npm install --prefix /tmp/chp configurable-http-proxy")
        return 2
    load = os.getloadavg()[0]
    print(f"hub benchmark on {machine()}, load average {load:.2f} at the start")
    print(f"lessons {', '.join(lesson[:2] for lesson in LESSONS)}, run in order by every learner at once\n")
    largest: dict[str, float] = {}
    for n in args.learners:
        figures, wall, base_rss = one_round(n, proxy)
        largest = report(n, figures, wall, base_rss)
    sizing(largest, max(args.learners))
    return 0


if __name__ == "__main__":
    sys.exit(main())
