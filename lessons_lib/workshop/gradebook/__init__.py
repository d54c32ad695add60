"""The gradebook of lessons 11-12: a class's folder graded one process per submission."""
