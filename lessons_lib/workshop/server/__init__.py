"""Lesson 12: the server probe and the server grader."""
