"""lessons_lib.engine"""
