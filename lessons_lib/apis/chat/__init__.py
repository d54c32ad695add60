"""The Chat Completions plug-in: adapter and offline stand-in (lessons 20-22)."""
