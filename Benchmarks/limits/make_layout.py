#!/usr/bin/env python3
"""A layout at the limits of docs/limits.md, for measuring the engine's cost there (issue 25).

N recognizers (10,000 by default, the limit) of every kind, a double tap and an edge pan on
every edge among them, either all on one full-screen view or spread over a chain of nested
full-screen views, so that a touch anywhere reaches every one of them; optionally each with a
`requireToFail` list of the next K recognizers (forward only, so no cycle) and a
`simultaneousWith` list of the next K (wrapping round). Ids are short, so that a million
references still fit in a configuration file (8 MiB).

usage: make_layout.py [--shape one-view|chain] [--recognizers N] [--depth D] [--references K]
                      > layout.json
"""
import argparse
import json
import string
import sys

KINDS = [
    {"type": "tap"},
    {"type": "tap", "taps": 2},
    {"type": "longPress"},
    {"type": "pan"},
    {"type": "swipe"},
    {"type": "pinch"},
    {"type": "rotation"},
    {"type": "edgePan", "edges": ["left", "right", "top", "bottom"]},
]
LETTERS = string.ascii_letters
ALPHABET = string.ascii_letters + string.digits


def ident(number):
    text = LETTERS[number % len(LETTERS)]
    number //= len(LETTERS)
    while number:
        text += ALPHABET[number % len(ALPHABET)]
        number //= len(ALPHABET)
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shape", choices=["one-view", "chain"], default="one-view")
    parser.add_argument("--recognizers", type=int, default=10000)
    # 62 levels: each view level takes two levels of JSON, and the parser stops at 128.
    parser.add_argument("--depth", type=int, default=62)
    parser.add_argument("--references", type=int, default=0)
    options = parser.parse_args()
    count, references = options.recognizers, options.references
    recognizers = []
    for number in range(count):
        recognizer = {"id": ident(number), **KINDS[number % len(KINDS)]}
        if references:
            later = [ident(other) for other in range(number + 1, min(count, number + 1 + references))]
            if later:
                recognizer["requireToFail"] = later
            recognizer["simultaneousWith"] = [ident((number + step) % count) for step in range(1, references + 1)
                                              if (number + step) % count != number]
        recognizers.append(recognizer)
    screen = [0, 0, 1920, 1080]
    if options.shape == "one-view":
        root = {"id": "root", "frame": screen, "subviews": [
            {"id": "canvas", "frame": screen, "multipleTouchEnabled": True, "recognizers": recognizers}]}
    else:
        levels = options.depth - 1
        per_level = -(-count // levels)
        root = {"id": "root", "frame": screen}
        parent = root
        for level in range(levels):
            view = {"id": f"level{level}", "frame": screen, "multipleTouchEnabled": True,
                    "recognizers": recognizers[level * per_level:(level + 1) * per_level]}
            parent["subviews"] = [view]
            parent = view
    json.dump(root, sys.stdout, separators=(",", ":"))


if __name__ == "__main__":
    main()
