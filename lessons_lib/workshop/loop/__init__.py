"""Lesson 11: the loop workbench, its step checkers and the loop grader."""
