"""Model APIs as plug-ins: one folder per API (responses, chat, anthropic) and what they share."""
