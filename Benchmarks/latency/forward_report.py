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
    return len(player), len(copy), sorted(values), ordered


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    directory, name, consumers = argv[0], argv[1], argv[2:]
    print(f"{'recording':<8} {'consumer':<13} {'played':>7} {'on copy':>7} {'paired':>7} "
          f"{'min µs':>8} {'p50 µs':>8} {'p99 µs':>8} {'max µs':>8}  order")
    for consumer in consumers:
        played, on_copy, values, ordered = hops(directory, name, consumer)
        low = values[0] if values else float("nan")
        high = values[-1] if values else float("nan")
        print(f"{name:<8} {consumer:<13} {played:7d} {on_copy:7d} {len(values):7d} {low:8.0f} "
              f"{percentile(values, 50):8.0f} {percentile(values, 99):8.0f} {high:8.0f}  "
              f"{'kept' if ordered else 'CHANGED'}")


if __name__ == "__main__":
    main(sys.argv[1:])
