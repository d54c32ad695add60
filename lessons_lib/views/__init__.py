"""lessons_lib.views"""
