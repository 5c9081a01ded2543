#!/usr/bin/env python3
"""Lists the functions of one binary that ran in callgrind profiles, most
instructions first: the symbol order lld lays the hub's code out by.

Usage: functions-by-cost.py BINARY_NAME CALLGRIND_OUT... > hearth.order

Reads callgrind's uncompressed output (--compress-strings=no
--compress-pos=no): `ob=` names the object, `fn=` starts a function, and a
cost line is "line instructions". The line after `calls=` is the inclusive
cost of a call, which belongs to the callee, so it is not counted here.
"""
import collections
import sys


def self_costs(path, binary_name, costs):
    in_binary = False
    function = None
    after_call = False
    with open(path, errors="replace") as profile:
        for line in profile:
            line = line.rstrip("\n")
            if line.startswith("ob="):
                in_binary = line[3:].endswith(binary_name)
            elif line.startswith("fn="):
                function = line[3:] if in_binary else None
                if function:
                    costs[function] += 0
            elif line.startswith("calls="):
                after_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if after_call:
                    after_call = False
                elif function:
                    fields = line.split()
                    if len(fields) >= 2 and fields[1].isdigit():
                        costs[function] += int(fields[1])


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: functions-by-cost.py BINARY_NAME CALLGRIND_OUT...")
    costs = collections.Counter()
    for path in sys.argv[2:]:
        self_costs(path, sys.argv[1], costs)
    if not costs:
        sys.exit(f"functions-by-cost.py: no function of {sys.argv[1]} in the profiles")
    for name, _ in sorted(costs.items(), key=lambda item: (-item[1], item[0])):
        print(name)
    print(f"functions-by-cost.py: {len(costs)} functions", file=sys.stderr)


main()
