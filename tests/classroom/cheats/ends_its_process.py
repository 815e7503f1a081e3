"""The library's answer, then the process ended before the grader can ask it anything."""

NOTEBOOK = "02-boards-as-data"
CELLS = {
    "02-toggle_flag": "my_toggle_flag = toggle_flag\n\nimport os\n\nos._exit(0)\n",
    "02-chord": "my_chord = chord\n",
}
FLAGS = ("process",)
