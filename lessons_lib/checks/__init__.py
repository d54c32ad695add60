"""lessons_lib.checks"""
