#!/usr/bin/env python3
"""Makes a long evemu recording for measuring replay memory and speed (docs/performance.md):
scripts/long-recording.py SOURCE.evemu OUTPUT.evemu MEGABYTES

Writes SOURCE's description, then its event section again and again, each copy shifted in
time to start one second after the previous one ends, until OUTPUT has at least MEGABYTES
MiB. Each copy ends with every finger lifted when SOURCE does, so the replay stays a sequence
of real gestures. The text after an event's timestamp is kept as SOURCE wrote it.
"""
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: scripts/long-recording.py SOURCE.evemu OUTPUT.evemu MEGABYTES")
    source, output, megabytes = sys.argv[1], sys.argv[2], float(sys.argv[3])
    header, events = [], []
    with open(source, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("E:"):
                stamp, rest = line[2:].split(None, 1)
                seconds, micros = stamp.split(".")
                events.append((int(seconds) * 1_000_000 + int(micros), rest))
            elif not events:
                header.append(line)
    if not events:
        sys.exit(f"{source}: no events (\"E:\" lines) to repeat")
    first, last = events[0][0], events[-1][0]
    period = last - first + 1_000_000
    target = int(megabytes * (1 << 20))
    written = 0
    with open(output, "w", encoding="utf-8") as out:
        out.writelines(header)
        copy = 0
        while written < target:
            shift = copy * period
            block = "".join(f"E: {(t + shift) // 1_000_000}.{(t + shift) % 1_000_000:06d} {rest}"
                            for t, rest in events)
            out.write(block)
            written += len(block)
            copy += 1
    print(f"{output}: {copy} copies of {len(events)} events, {written >> 20} MiB of events", file=sys.stderr)


if __name__ == "__main__":
    main()
