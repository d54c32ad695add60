"""The loop's total time bound counts from the first model request (issue 22, point 5).

Loading the SDKs and connecting the services before the first request do not count, so a slow
laptop under load does not lose its run to import time. The bound is read from the clock of
``Limits`` (here an injected one, so no test waits or depends on the machine's speed).
"""

from __future__ import annotations

from pathlib import Path

from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.engine.host import Limits, run_chain
from lessons_lib.services.files.service import build_server


class FakeClock:
    """A clock that only moves when told to, or by ``step`` on every reading."""

    def __init__(self, step: float = 0.0) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def test_time_before_the_first_request_does_not_count() -> None:
    clock = FakeClock()

    def slow_to_start(name: str) -> object:  # a service (or an SDK import) that takes 1000 s
        clock.now += 1000
        return build_server(Path(WORKSPACE_DIR), name)

    trace = run_chain(services={"fs": slow_to_start}, limits=Limits(total_timeout=30, clock=clock))
    assert trace.outcome["status"] == "answered", trace.outcome
    assert clock.readings >= 2, "the bound was read at the first request and again later"


def test_the_bound_stops_the_run_once_spent_between_requests() -> None:
    trace = run_chain(limits=Limits(total_timeout=30, clock=FakeClock(step=40)))
    assert trace.outcome["status"] == "stopped"
    assert trace.outcome["reason"] == "total time bound of 30 s reached"
    requests = [e["label"] for e in trace.events if e["label"].startswith("request_")]
    assert requests == ["request_1"], "no request leaves after the bound is spent"


def test_within_the_bound_the_run_answers() -> None:
    trace = run_chain(limits=Limits(total_timeout=30, clock=FakeClock(step=10)))
    assert trace.outcome["status"] == "answered", trace.outcome
