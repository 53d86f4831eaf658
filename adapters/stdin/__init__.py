"""The stdin adapter: people play in a terminal, programs speak JSON lines on stdin/stdout."""
