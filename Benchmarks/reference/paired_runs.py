#!/usr/bin/env python3
"""Paired timing of whole commands: each round runs every command once, in turn, so that a
machine whose speed drifts (a shared host) slows all of them alike; the ratio of the first
command's time to each other's is taken per round, and medians and quartiles reported.

usage: paired_runs.py [--rounds N] [--warmup N] 'REFERENCE COMMAND' 'COMMAND' ...
e.g.   paired_runs.py '/tmp/evemu-read long300.evemu' \\
           '.build/release/gestured replay --config config/photo-wall.json5 long300.evemu'

Output goes to /dev/null; a command that fails stops the measurement.
"""
import argparse
import shlex
import statistics
import subprocess
import time


def run(argv):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("commands", nargs="+", help="the reference first, then the commands compared to it")
    options = parser.parse_args()
    if len(options.commands) < 2 or not 1 <= options.rounds <= 10_000 or not 0 <= options.warmup <= 100:
        parser.error("give a reference and at least one command; 1 to 10,000 rounds, 0 to 100 warm-ups")
    commands = [shlex.split(command) for command in options.commands]
    for _ in range(options.warmup):
        for argv in commands:
            run(argv)
    times = [[] for _ in commands]
    for _ in range(options.rounds):
        for index, argv in enumerate(commands):
            times[index].append(run(argv))
    reference = times[0]
    print(f"{options.rounds} rounds; reference: {options.commands[0]}: median {statistics.median(reference) * 1000:.1f} ms")
    for command, measured in zip(options.commands[1:], times[1:]):
        ratios = [r / m for r, m in zip(reference, measured)]
        low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0], 0, ratios[0])
        print(f"{command}: median {statistics.median(measured) * 1000:.1f} ms; "
              f"reference / command per round: median {statistics.median(ratios):.2f} (quartiles {low:.2f} to {high:.2f})")


if __name__ == "__main__":
    main()
