#!/usr/bin/env python3
"""The hop of a forwarded frame, from the files Benchmarks/latency/forward-guest.sh leaves.

usage: forward_report.py DIR NAME CONSUMER...

For each consumer, DIR/NAME.CONSUMER.player holds the player's frames ("NUMBER\\tBEFORE_NS\\t
AFTER_NS", CLOCK_MONOTONIC around the frame's write to the panel's uinput descriptor) and
DIR/NAME.CONSUMER.copy the frames read on the copy ("NUMBER\\tTIME_NS", the kernel's time of
the frame on the copy). A copy frame is paired with the player frame of the same number (the
MSC_TIMESTAMP value the player put in it); the hop is the copy's time minus the player's
BEFORE. Printed per consumer: frames played, frames on the copy, frames paired, min, p50, p99,
max in µs (nearest rank), and whether the copy's frames came in the player's order.

The consumer "panel" (the reader on the panel itself, no consumer) gives, per frame, how far
the kernel's stamp of the frame is after the player's BEFORE (the input core's work on the
frame's events inside the write). When it was measured, each other consumer also gets the hop
from the kernel's stamp: its hop minus the panel play's offset of the frame with the same
number (the same events, written the same way), as "from the kernel's stamp" below its row.
"""
import sys


def percentile(sorted_values, p):
    """Nearest-rank percentile."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def read_rows(path):
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            try:
                rows.append([int(x) for x in parts])
            except ValueError:
                raise SystemExit(f"{path}:{number}: not a row of integers: {line.strip()!r}")
    return rows


def hops(directory, name, consumer):
    player = {row[0]: row[1] for row in read_rows(f"{directory}/{name}.{consumer}.player")}
    try:
        copy = read_rows(f"{directory}/{name}.{consumer}.copy")
    except FileNotFoundError:
        copy = []
    copy = [row for row in copy if 0 < row[0] < 1_000_000]   # not the warm-up's, not a reset
    values, ordered, last = [], True, -1
    for number, time_ns in copy:
        if number not in player:
            continue
        if number <= last:
            ordered = False
        last = number
        values.append((time_ns - player[number]) / 1000)
    return len(player), len(copy), values, ordered


def by_number(directory, name, consumer):
    """The hop of each paired frame, by its number."""
    player = {row[0]: row[1] for row in read_rows(f"{directory}/{name}.{consumer}.player")}
    try:
        copy = read_rows(f"{directory}/{name}.{consumer}.copy")
    except FileNotFoundError:
        return {}
    return {number: (time_ns - player[number]) / 1000 for number, time_ns in copy if number in player}


def row(name, label, played, on_copy, values, ordered):
    values = sorted(values)
    low = values[0] if values else float("nan")
    high = values[-1] if values else float("nan")
    order = "" if ordered is None else ("kept" if ordered else "CHANGED")
    print(f"{name:<8} {label:<13} {played:>7} {on_copy:>7} {len(values):7d} {low:8.0f} "
          f"{percentile(values, 50):8.0f} {percentile(values, 99):8.0f} {high:8.0f}  {order}")


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    directory, name, consumers = argv[0], argv[1], argv[2:]
    print(f"{'recording':<8} {'consumer':<13} {'played':>7} {'on copy':>7} {'paired':>7} "
          f"{'min µs':>8} {'p50 µs':>8} {'p99 µs':>8} {'max µs':>8}  order")
    offsets = by_number(directory, name, "panel") if "panel" in consumers else {}
    for consumer in consumers:
        played, on_copy, values, ordered = hops(directory, name, consumer)
        row(name, consumer, played, on_copy, values, ordered)
        if offsets and consumer != "panel":
            hop = by_number(directory, name, consumer)
            from_kernel = [value - offsets[number] for number, value in hop.items() if number in offsets]
            row(name, "  from kernel", "", "", from_kernel, None)


if __name__ == "__main__":
    main(sys.argv[1:])
