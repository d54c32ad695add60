"""The Responses API plug-in: its stand-in with server-side state (lesson 22)."""
