"""Imported by the gradebook's fork server only: the grading processes' warm-up, done once.

Introduced with the gradebook (lesson 11). Where the platform can fork, every grading process
is a fork of one server that imported this module, so the SDKs' lazy imports, pydantic's
validators and the SDK's platform probe are already done when a learner's code starts. This
module exists for that side effect; nothing else imports it.
"""

from lessons_lib.workshop.gradebook.worker import warm_up

warm_up()
