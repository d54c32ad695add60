"""The trace of a run: its format, its types and the one set of questions readers ask it (lesson 03)."""
