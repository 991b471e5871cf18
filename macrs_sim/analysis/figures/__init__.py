"""The report's figures (matplotlib), each written atomically as a PNG."""
