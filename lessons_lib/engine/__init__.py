"""The loop and what it runs on: the file service, the stand-ins, live mode (lessons 01-06 on)."""
