"""The course's own loop on lesson 11's trusted side: a grading case run by the one loop. Lesson 11.

In lesson 11 the learner writes the loop and the workbench (:mod:`lessons_lib.workshop.loop.kit`) gives
it the two real ends. When the course itself runs a case -- the reference run a grader or a
test compares with -- it does not drive the bench with a loop of its own: :func:`course_run`
hands the same trusted side (the scripted stand-in with its request cap, the same services and
injected faults) to the one loop (:func:`lessons_lib.engine.host.arun_chain`) as a
:class:`~lessons_lib.engine.policy.Policy`, so the key cleaning, the reply and call caps, the
SDK error mapping and the one-line failures hold for it like for every run of the course.
"""

from __future__ import annotations

from lessons_lib.core.example import TASK
from lessons_lib.core.messages import t
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.execute import ServiceSpec
from lessons_lib.engine.host import Limits, run_chain
from lessons_lib.engine.policy import Policy
from lessons_lib.workshop.loop.kit_standin import TrustedSide


def course_run(
    task: str = TASK, side: TrustedSide | None = None, *, max_rounds: int = 3
) -> tuple[Trace, bool]:
    """The one loop on a trusted side: (trace, whether the request cap was hit). Lesson 11.

    ``side`` holds the options of :func:`lessons_lib.workshop.loop.kit.workbench` (a grading case's
    ``TrustedSide(**case.bench_options())``); ``max_rounds`` is the loop's round limit. Like the
    learner's loop, it leaves ``tool_choice`` to the model on every request.
    """
    side = side or TrustedSide()
    cap = side.standin()
    served: dict[str, ServiceSpec] = {name: side.server for name in side.services}
    stopped = t("engine.stopped", n=max_rounds)  # what the user is told when the round limit ends the run
    policy = Policy(settings={"tool_choice": None}, standin=lambda: cap, fallback=stopped)
    trace = run_chain(task, services=served, limits=Limits(max_rounds=max_rounds), policy=policy)
    return trace, cap.runaway
