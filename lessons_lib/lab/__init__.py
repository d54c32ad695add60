"""lessons_lib.lab"""
