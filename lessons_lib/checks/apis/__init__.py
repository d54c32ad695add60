"""The checks and views that read a Chat or Anthropic message in the Responses places (lessons 20-22)."""
