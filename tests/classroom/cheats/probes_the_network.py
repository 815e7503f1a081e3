"""A datagram, a TCP connection and a Unix socket's message to listeners outside the process."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-chord": """import socket

for attempt in (
    lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"leaked", ("127.0.0.1", {udp})),
    lambda: socket.create_connection(("127.0.0.1", {tcp}), timeout=2).sendall(b"leaked"),
    lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"leaked", "{unix}"),
):
    try:
        attempt()
    except OSError:
        pass
""",
}
CELLS = {"02-chord": "my_chord = chord\n"}
FLAGS = ("network", "system", "library")
