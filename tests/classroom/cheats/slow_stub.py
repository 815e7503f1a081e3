"""A stub that sleeps on every call, so that the check runs out of time before its examples do."""

NOTEBOOK = "02-boards-as-data"
CELLS = {"02-toggle_flag": "import time\n\n\ndef my_toggle_flag(b, p):\n    time.sleep(0.4)\n    return b\n"}
FLAGS = ("stub", "cut-short")
