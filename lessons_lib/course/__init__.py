"""lessons_lib.course"""
