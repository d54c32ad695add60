"""The kernel every lesson stands on: traces, messages, kinds, paths, verdicts, no SDK."""
