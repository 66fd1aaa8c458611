"""score.py's contract with the platforms: its arguments and exit codes, the one line on stderr (``cli``), one run
from INPUT to the files in OUTPUT (``runner``), and which platform runs us and what it hides (``hosts``)."""
