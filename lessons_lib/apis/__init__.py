"""Model APIs as plug-ins: one folder per API (responses, chat, anthropic) and what they share.

Lessons 20-22 put the same call side by side in the three; every lesson from 01 on runs one of them.
"""
