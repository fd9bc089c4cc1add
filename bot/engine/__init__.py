"""The analysis engine: bytes and paths in, findings out. No network, no GitHub."""
