"""Scoring engine for CodaLab / Codabench competitions (numpy, pandas, pyyaml only)."""

__version__ = "1.0.0"
