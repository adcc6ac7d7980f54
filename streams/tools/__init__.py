"""The tools people run: the `contraflow` command line, the demo, offline replay and its
report, the bundled broker launcher, the console rendering of events, the chaos run."""
