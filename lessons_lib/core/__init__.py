"""lessons_lib.core"""
