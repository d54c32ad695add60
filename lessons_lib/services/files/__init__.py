"""The file service of part one: ``read_text_file``, its safe opener, its path rules and its stdio server
(lessons 02-04).
"""
