#!/usr/bin/env python3
"""Worst time of one request per op and precision within the limits of
docs/eval-protocol.md 1.4 (tools/protocol/limits.hpp). Not a test: it prints
a table of wall-clock seconds (one `rigidref eval` process per request, so
the figures include its start-up, a few ms) for the docs.

    measure_limits.py path/to/rigidref [--quick]

Inputs at the limits: lists of max_list_length points (in float and
double); in long double, mp50 and mp100 coordinates that are decimal strings
of max_number_chars characters, as many points as fit in max_line_bytes;
in exact max_exact_list_length points whose values alternate between
~2^100 and ~2^-99 (about max_exact_list_bits bits), and scalar fields that
are decimal strings of max_number_chars characters near the +-20000
exponent range of rigidref::parse_exact.
"""
import json
import math
import random
import subprocess
import sys
import time

MAX_LIST = 1000
MAX_EXACT_LIST = 200
MAX_CHARS = 800
MAX_LINE = 1 << 20
PRECISIONS = ["float", "double", "long double", "mp50", "mp100", "exact"]
rng = random.Random(20261122)


def long_decimal(value, exponent):
    """value (|value| in [1, 10)) as a string of MAX_CHARS characters times 10^exponent."""
    sign = "-" if value < 0 else ""
    head = f"{abs(value):.15f}"  # "d.ddddddddddddddd"
    tail = f"e{exponent}"
    filler = MAX_CHARS - len(sign) - len(head) - len(tail)
    digits = "".join(rng.choice("0123456789") for _ in range(filler - 1)) + "1"
    return sign + head + digits + tail


def coord(v, precision, exponent):
    if precision in ("float", "double"):
        return v
    # long double, mp50, mp100, exact: strings; exact gets the widest rationals
    mag = exponent if precision == "exact" else 0
    scaled = v * 10 ** 0
    if scaled == 0:
        return "0"
    e10 = math.floor(math.log10(abs(scaled)))
    return long_decimal(scaled / 10 ** e10, e10 + mag)


def points_per_list(precision, lists):
    if precision in ("float", "double"):
        return MAX_LIST
    if precision == "exact":
        return MAX_EXACT_LIST
    return min(MAX_LIST, (MAX_LINE - 1000) // (lists * 2 * (MAX_CHARS + 3)))


def polygon(n, precision, radius=1.0, cx=0.0, cy=0.0):
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        if precision == "exact":  # alternating scales: ~254 bits per list (a star-shaped polygon)
            s = 2.0 ** 98 if i % 2 == 0 else 2.0 ** -97
            pts.append([cx + radius * math.cos(t) * s, cy + radius * math.sin(t) * s])
        else:
            pts.append([coord(cx + radius * math.cos(t), precision, 0),
                        coord(cy + radius * math.sin(t), precision, 0)])
    return pts


def requests(precision):
    # exact: scale the whole input by 10^19000 so that every coordinate is a
    # ~66,000-bit rational (a uniform scale keeps the geometry).
    big = 19000
    n1, n2, n3 = (points_per_list(precision, k) for k in (1, 2, 3))
    yield "mass.polygon", {"op": "mass.polygon", "vertices": polygon(n1, precision)}
    yield "mass.triangle", {"op": "mass.triangle", "vertices": polygon(3, precision), "mass": 1}
    for formula in ("article", "closed_form"):
        yield f"mass.regular_polygon {formula}", {"op": "mass.regular_polygon", "sides": 1000000,
                                                  "radius": coord(1.5, precision, big), "mass": 1,
                                                  "formula": formula}
    yield "mass.circle", {"op": "mass.circle", "radius": coord(1.5, precision, big), "mass": coord(2.5, precision, -big)}
    yield "mass.rectangle", {"op": "mass.rectangle", "width": coord(1.5, precision, big),
                             "height": coord(2.5, precision, -big), "mass": 1}
    m = [[coord(2.5, precision, 0), coord(1.25, precision, 0)], [coord(1.25, precision, 0), coord(3.5, precision, 0)]]
    for method in ("cayley_hamilton", "diagonalization"):
        yield f"mat2.sqrt {method}", {"op": "mat2.sqrt", "m": m, "method": method}
    yield "mat2.polar", {"op": "mat2.polar", "m": m, "side": "right"}
    yield "shape_match", {"op": "shape_match", "rest": polygon(n3, precision),
                          "current": polygon(n3, precision, cx=0.25), "weights": [1.5] * n3}
    a = polygon(n2, precision)
    for name, dx in (("separated", 2.5), ("overlapping", 0.5)):
        b = polygon(n2, precision, cx=dx, cy=0.125)
        yield f"gjk.distance {name}", {"op": "gjk.distance", "a": a, "b": b}
        yield f"epa.penetration {name}", {"op": "epa.penetration", "a": a, "b": b}
        yield f"contact.manifold {name}", {"op": "contact.manifold", "a": a, "b": b}
    # step.pair: two bodies of n3 vertices each, 0.5 apart at their centres
    # (overlapping), approaching and spinning.
    def step_body(dx, vx):  # n3: room in the line for the bodies' other fields
        return {"vertices": polygon(n3, precision), "position": [coord(dx, precision, 0), 0], "angle": 0,
                "velocity": [coord(vx, precision, 0), 0], "angular_velocity": coord(0.75, precision, 0),
                "density": 1, "static": False}
    yield "step.pair", {"op": "step.pair", "body1": step_body(0.0, 1.25), "body2": step_body(1.5, -1.25),
                        "restitution": 0.5, "friction": 0.3, "dt": 0.015625, "gravity": [0, 0]}
    yield "sat.rectangles", {"op": "sat.rectangles",
                             "r1": {"center": [0, 0], "width": 2, "height": 1, "angle": 0.5},
                             "r2": {"center": [1, 1], "width": 1, "height": 1, "angle": -0.3}}
    body = {"mass": coord(1.5, precision, big), "inertia": coord(2.5, precision, big),
            "velocity": [coord(1.25, precision, -big), coord(-3.5, precision, -big)],
            "angular_velocity": coord(0.75, precision, -big), "r": [coord(1.5, precision, 0), coord(-1.5, precision, 0)]}
    yield "impulse.wall", dict({"op": "impulse.wall", "normal": [0, 1], "restitution": 0.5, "friction": 0.3,
                                "model": "coupled"}, **body)
    yield "impulse.pair", {"op": "impulse.pair", "body1": body, "body2": dict(body, r=[1, 0]), "normal": [0, 1],
                           "restitution": 0.5, "friction": 0.3, "model": "coupled"}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    precisions = ["double", "mp100", "exact"] if "--quick" in sys.argv else PRECISIONS
    worst = {}
    for precision in precisions:
        for name, request in requests(precision):
            request["precision"] = precision
            line = json.dumps(request, separators=(",", ":"))
            start = time.perf_counter()
            assert len(line) <= MAX_LINE, (name, precision, len(line))
            out = subprocess.run([binary, "eval"], input=line + "\n", capture_output=True, text=True).stdout
            seconds = time.perf_counter() - start
            answer = json.loads(out)
            outcome = "ok" if answer["ok"] else answer["error"]["code"]
            print(f"{name:32} {precision:12} {seconds:8.3f} s  {outcome}  ({len(line)} bytes)", flush=True)
            op = name.split()[0]
            worst[op] = max(worst.get(op, (0.0, "")), (seconds, precision))
    print("\nworst per op:")
    for op, (seconds, precision) in worst.items():
        print(f"  {op:24} {seconds:8.3f} s  ({precision})")


if __name__ == "__main__":
    main()
