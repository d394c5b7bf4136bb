#!/usr/bin/env python3
"""A rigidref engine adapter: copy this file and put your engine in it.

It reads request lines (JSON, one per line; docs/eval-protocol.md) on
standard input and writes one answer line per request line on standard
output, in order, for `rigidref check` (docs/adapters.md walks through it):

    python3 adapter.py < data/validation/mass.jsonl > answers.jsonl
    rigidref check answers.jsonl --cases data/validation/mass.jsonl

An answer line is the request's own fields, unchanged (or rounded to your
engine's precision, see to_float32), plus only:
    engine       your engine's name and version (ENGINE below)
    precision    the precision it computes in (PRECISION below)
    result       ONLY the op's result fields (docs/eval-protocol.md section 3)
    error        instead of result: {"code", "message"}; "unsupported" when
                 your engine does not take the case (counted as skipped)
    allowances   optional {"name": amount}, what it approximates on purpose
    diagnostics  optional, free-form, not judged: anything else you want to
                 see again (vertices used, iterations, settings); every change
                 of an input beyond rounding goes in diagnostics.input_changes

As shipped, the "engine" is a stand-in that answers mass.polygon by a
triangle fan from the first vertex in double, and every other op with
"unsupported". Replace the stand-in by calls to your engine where it says
YOUR ENGINE. Python standard library only.
"""

import json
import math
import struct
import sys

# ---- 1. Who answers --------------------------------------------------------------

ENGINE = "stand-in-fan-1.0"  # YOUR ENGINE: its name and version
PRECISION = "double"         # YOUR ENGINE: "float" if it computes in float (then round inputs: to_float32)


class Unsupported(Exception):
    """Your engine does not take this case: answered "unsupported" (skipped)."""


class InvalidInput(Exception):
    """The request itself is malformed or no valid case: answered "invalid_input"."""


def to_float32(x):
    """x rounded to float, as a float engine is given it (write it back into the
    line: the judge accepts an input rounded to the declared precision)."""
    if not math.isfinite(x):
        raise InvalidInput("not a finite number")
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        raise Unsupported(f"{x!r} is beyond float's range (the engine computes in float)")


# ---- 2. Reading the request -------------------------------------------------------

def number(value, what):
    # bool is an int in Python: true is no number here.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{what}: expected a number, got {json.dumps(value)[:40]}")
    x = float(value)
    if not math.isfinite(x):
        raise InvalidInput(f"{what}: not a finite number")
    return x


def vertices_of(line):
    given = line.get("vertices")
    if not isinstance(given, list):
        raise InvalidInput("vertices: expected a list of [x, y]")
    out = []
    for i, p in enumerate(given):
        if not isinstance(p, list) or len(p) != 2:
            raise InvalidInput(f"vertices[{i}]: expected [x, y]")
        out.append((number(p[0], f"vertices[{i}]"), number(p[1], f"vertices[{i}]")))
    if len(out) < 3:
        raise InvalidInput("vertices: a polygon needs 3 or more vertices")
    return out


def density_of(line):
    if "mass" in line:
        # The stand-in (like the adapters of rigidref) sets a density; the case sets give one.
        raise Unsupported('this adapter takes "density", not the total "mass"')
    density = number(line["density"], "density") if "density" in line else 1.0
    if not density > 0:
        raise InvalidInput("density: must be > 0")
    return density


# ---- 3. The engine ----------------------------------------------------------------

def stand_in_polygon_mass(vertices, density):
    """The stand-in engine: area, centroid, mass and polar moment of inertia about
    the centroid of a simple polygon, by a fan of triangles from the first vertex
    (signed areas, so either orientation and non-convex polygons work)."""
    x0, y0 = vertices[0]
    twice_area = 0.0   # sum of c = cross(e1, e2): twice the signed area
    moment_x = 0.0     # sum of c (e1 + e2): 6 area times the centroid, from vertex 0
    moment_y = 0.0
    second = 0.0       # sum of c (|e1|^2 + e1.e2 + |e2|^2): 12 times the polar moment about vertex 0
    for i in range(1, len(vertices) - 1):
        e1x, e1y = vertices[i][0] - x0, vertices[i][1] - y0
        e2x, e2y = vertices[i + 1][0] - x0, vertices[i + 1][1] - y0
        c = e1x * e2y - e1y * e2x
        twice_area += c
        moment_x += c * (e1x + e2x)
        moment_y += c * (e1y + e2y)
        second += c * (e1x * e1x + e1y * e1y + e1x * e2x + e1y * e2y + e2x * e2x + e2y * e2y)
    if twice_area == 0:
        raise InvalidInput("vertices: the polygon has no area")
    sign = 1.0 if twice_area > 0 else -1.0
    dx = moment_x / (3 * twice_area)  # the centroid from vertex 0
    dy = moment_y / (3 * twice_area)
    area = sign * twice_area / 2
    mass = density * area
    inertia = density * sign * second / 12 - mass * (dx * dx + dy * dy)  # parallel-axis shift to the centroid
    return area, (x0 + dx, y0 + dy), mass, inertia


def mass_polygon(line):
    vertices = vertices_of(line)
    density = density_of(line)
    # YOUR ENGINE: build its polygon body from `vertices` and `density` and read
    # back area, centroid, mass and inertia (polar, about the centroid).
    # If it computes in float: vertices = [(to_float32(x), to_float32(y)) for x, y in vertices],
    # line["vertices"] = [[x, y] for x, y in vertices], the same for density, and
    # PRECISION = "float". If it changes the polygon beyond that (welds close
    # vertices, drops collinear ones), say so:
    #   diagnostics(line).setdefault("input_changes", {})["vertices"] = "welded 2 vertices closer than 1e-3"
    area, centroid, mass, inertia = stand_in_polygon_mass(vertices, density)
    line["result"] = {"area": area, "centroid": [centroid[0], centroid[1]], "mass": mass, "inertia": inertia}
    diagnostics(line)["vertices_used"] = len(vertices)


def diagnostics(line):
    if not isinstance(line.get("diagnostics"), dict):
        line["diagnostics"] = {}
    return line["diagnostics"]


# One handler per op your engine answers (docs/eval-protocol.md section 3 lists
# each op's request and result fields); every other op is answered unsupported.
OPS = {
    "mass.polygon": mass_polygon,
    # "gjk.distance": gjk_distance,   YOUR ENGINE: result {"intersecting", "distance", "point_a", "point_b"}
}

# ---- 4. The loop: one answer line per request line ----------------------------------

MAX_LINE_BYTES = 1 << 20  # eval's limits (docs/eval-protocol.md section 1.4)
MAX_NESTING = 256
DOUBLE_MAX = sys.float_info.max


def nesting_depth(text):
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_float(text):
    x = float(text)
    if math.isinf(x):
        raise ValueError(f"the number {text[:40]} is beyond the double range")
    return x


def parse_int(text):
    x = int(text)  # more than 4300 digits: ValueError
    if abs(x) > DOUBLE_MAX:
        raise ValueError(f"the number {text[:40]}... is beyond the double range")
    return x


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def read_request(raw):
    """(line, None) for a request, (None, why) for a line that is none."""
    if len(raw) > MAX_LINE_BYTES:
        return None, f"request line longer than {MAX_LINE_BYTES} bytes (limit max_line_bytes)"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"not valid JSON: not UTF-8 ({e.reason} at byte {e.start})"
    if nesting_depth(text) > MAX_NESTING:
        return None, f"JSON nested deeper than {MAX_NESTING} levels"
    try:
        line = json.loads(text, parse_float=parse_float, parse_int=parse_int, parse_constant=reject_constant)
    except ValueError as e:
        return None, f"not valid JSON: {e}"
    if not isinstance(line, dict):
        return None, f"a request must be a JSON object, got {type(line).__name__}"
    return line, None


def finite_or_null(value):
    """Non-finite numbers as null (JSON has no NaN): the judge fails such a
    result field as "not finite"."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list):
        return [finite_or_null(v) for v in value]
    if isinstance(value, dict):
        return {k: finite_or_null(v) for k, v in value.items()}
    return value


def answer(line):
    op = line.get("op")
    name = op if isinstance(op, str) else json.dumps(op)
    try:
        handler = OPS.get(name)
        if handler is None:
            raise Unsupported(f'this adapter does not run op "{name}"')
        handler(line)
    except Unsupported as e:
        line.pop("result", None)
        line["error"] = {"code": "unsupported", "message": str(e)}
    except InvalidInput as e:
        line.pop("result", None)
        line["error"] = {"code": "invalid_input", "message": str(e)}
    except Exception as e:  # the engine failed on the case: a failure if the case is valid
        line.pop("result", None)
        line["error"] = {"code": "engine_error", "message": f"{type(e).__name__}: {e}"}


def main():
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        raw = raw.rstrip(b"\r\n")
        if not raw.strip(b" \t\r"):
            continue  # a blank line is no request and gets no answer
        line, problem = read_request(raw)
        if problem is not None:
            answer_line = {"id": None, "engine": ENGINE, "precision": PRECISION,
                           "error": {"code": "parse_error", "message": problem}}
        else:
            # Fields only the adapter writes: a request's own never pass for the engine's.
            for field in ("result", "error", "allowances", "diagnostics"):
                line.pop(field, None)
            line["engine"] = ENGINE
            line["precision"] = PRECISION
            answer(line)
            answer_line = line
        text = json.dumps(finite_or_null(answer_line), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        out.write(text.encode("utf-8") + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
