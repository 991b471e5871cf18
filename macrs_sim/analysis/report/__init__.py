"""Reports: Markdown sections, the full report of runs, the console table."""
