"""The benchmarks of SPEC §8 (``manasolver bench``): boards of real cards, the runner, the phase.rs
driver, the report and plots, the parser coverage, and the answer snapshot."""
