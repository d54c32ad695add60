"""The offline checkers of the lessons' exercises (lessons 03-07, 21-22, 30-33, 40-44, 50-52, 60-61)."""
