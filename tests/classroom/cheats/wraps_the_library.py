"""A function that only calls the library's answer, plainly or through functools.wraps."""

NOTEBOOK = "02-boards-as-data"
CELLS = {
    "02-toggle_flag": "import functools\n\n\n@functools.wraps(toggle_flag)\ndef my_toggle_flag(*args):\n"
    "    return toggle_flag(*args)\n",
    "02-chord": "def my_chord(board, pos):\n    return chord(board, pos)\n",
}
FLAGS = ("library",)
