"""What the lessons teach with: quizzes, exercises, graders, the cheat sheet, the environment check."""
