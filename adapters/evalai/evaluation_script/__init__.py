"""EvalAI entry point: the host imports this package and calls ``evaluate``."""
from .main import evaluate  # noqa: F401
