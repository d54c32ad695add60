"""The course's own runs on lesson 11's trusted side go through the one loop (issue 22).

``kit_course.course_run`` gives a grading case's trusted side (the scripted stand-in with its
request cap, the services, the injected fault) to ``engine/host``: the course's loop must pass
the lesson's own grader on every hidden case of both stages, and the loop's guards (the call cap,
one-line outcomes) hold there as in every other run.
"""

from __future__ import annotations

from lessons_lib.workshop.loop.grading_cases import cases_for
from lessons_lib.workshop.loop.grading_judge import judge_run
from lessons_lib.workshop.loop.grading_traffic import RunRecord
from lessons_lib.workshop.loop.kit_course import course_run
from lessons_lib.workshop.loop.kit_standin import TrustedSide


def test_the_one_loop_passes_the_lesson_11_grader_on_every_case() -> None:
    for stage in ("app_loop", "app_loop_many"):
        for case in cases_for(stage):
            trace, runaway = course_run(
                case.task, TrustedSide(**case.bench_options()), max_rounds=case.max_rounds
            )
            record = RunRecord(tuple(dict(e) for e in trace.events), runaway, trace.answer, None)
            problem = judge_run(case, record)
            assert problem is None, (stage, case.key, problem)
            assert not runaway, "the loop's round limit stops it before the bench's request cap"
            reason = trace.outcome["reason"]
            assert reason and "\n" not in reason, (case.key, reason)


def test_the_loops_call_cap_holds_on_the_bench() -> None:
    moves = tuple(("fs__read_text_file", '{"path": "/workspace/notes.txt", "head": 1}') for _ in range(17))
    trace, _ = course_run(side=TrustedSide(moves=moves))
    assert trace.outcome["status"] == "stopped", trace.outcome
    assert "\n" not in trace.outcome["reason"]
    assert not [e for e in trace.events if e["label"] == "tools/call"], "no call of that reply ran"
