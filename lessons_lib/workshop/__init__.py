"""The workshop: what the learner builds in lessons 11-12 (a loop, a server) and what grades it."""
