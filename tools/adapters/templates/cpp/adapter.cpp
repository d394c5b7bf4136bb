// A rigidref engine adapter: copy this folder and put your engine in it.
//
// It reads request lines (JSON, one per line; docs/eval-protocol.md) on
// standard input and writes one answer line per request line on standard
// output, in order, for `rigidref check` (docs/adapters.md walks through it):
//
//     build/my_adapter < data/validation/mass.jsonl > answers.jsonl
//     rigidref check answers.jsonl --cases data/validation/mass.jsonl
//
// The loop, the parse errors, the echo of the request's fields and the
// error codes are rigidref's installed adapter I/O (run_adapter in
// <rigidref/protocol/adapter_io.hpp>); you write one handler per op. A
// handler reads the request `line`, may round its inputs to the engine's
// precision (to_float_grid, to_float_shape: write them back into `line`),
// and sets only:
//   line["result"]     ONLY the op's result fields (docs/eval-protocol.md section 3)
//   line["allowances"] optional {"name": amount}, what it approximates on purpose
//   diagnostics(line)  optional, free-form, not judged: anything else you want to
//                      see again; declare_input_change(line, field, why) for every
//                      change of an input beyond rounding
// and throws unsupported_case when the engine does not take the case
// (counted as skipped), std::invalid_argument for a malformed request, or
// engine_error("code", ...) when the engine reports a failure.
//
// As shipped, the "engine" is a stand-in that answers mass.polygon by a
// triangle fan from the first vertex in double, and every other op with
// "unsupported". Replace the stand-in by calls to your engine where it says
// YOUR ENGINE.
#include <rigidref/protocol/adapter_io.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

using namespace rigidref::protocol;

// YOUR ENGINE: its name and version, and the precision it computes in
// ("float": then round its inputs with to_float_grid / to_float).
const char* const engine_name = "stand-in-fan-1.0";
const char* const engine_precision = "double";

struct polygon_mass {
  double area, centroid_x, centroid_y, mass, inertia;
};

// The stand-in engine: area, centroid, mass and polar moment of inertia
// about the centroid of a simple polygon, by a fan of triangles from the
// first vertex (signed areas, so either orientation and non-convex polygons
// work).
polygon_mass stand_in_polygon_mass(const std::vector<point>& v, double density) {
  const double x0 = v[0].x, y0 = v[0].y;
  double twice_area = 0;  // sum of c = cross(e1, e2): twice the signed area
  double moment_x = 0;    // sum of c (e1 + e2): 6 area times the centroid, from vertex 0
  double moment_y = 0;
  double second = 0;      // sum of c (|e1|^2 + e1.e2 + |e2|^2): 12 times the polar moment about vertex 0
  for (std::size_t i = 1; i + 1 < v.size(); ++i) {
    const double e1x = v[i].x - x0, e1y = v[i].y - y0;
    const double e2x = v[i + 1].x - x0, e2y = v[i + 1].y - y0;
    const double c = e1x * e2y - e1y * e2x;
    twice_area += c;
    moment_x += c * (e1x + e2x);
    moment_y += c * (e1y + e2y);
    second += c * (e1x * e1x + e1y * e1y + e1x * e2x + e1y * e2y + e2x * e2x + e2y * e2y);
  }
  if (twice_area == 0) throw std::invalid_argument("vertices: the polygon has no area");
  const double sign = twice_area > 0 ? 1.0 : -1.0;
  const double dx = moment_x / (3 * twice_area);  // the centroid from vertex 0
  const double dy = moment_y / (3 * twice_area);
  const double area = sign * twice_area / 2;
  const double mass = density * area;
  const double inertia = density * sign * second / 12 - mass * (dx * dx + dy * dy);  // parallel-axis shift
  return {area, x0 + dx, y0 + dy, mass, inertia};
}

void mass_polygon(ojson& line) {
  const std::vector<point> vertices = points(line.at("vertices"), "vertices");
  for (const point& p : vertices)
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) throw std::invalid_argument("vertices: not a finite number");
  if (vertices.size() < 3) throw std::invalid_argument("vertices: a polygon needs 3 or more vertices");
  const double density = polygon_density(line);  // default 1; "mass" instead is unsupported
  // YOUR ENGINE: build its polygon body from `vertices` and `density` and
  // read back area, centroid, mass and inertia (polar, about the centroid).
  // If it computes in float: vertices = to_float_grid(vertices, "vertices");
  // line["vertices"] = points_json(vertices); and engine_precision "float".
  // If it changes the polygon beyond that (welds close vertices, drops
  // collinear ones), say so:
  //   declare_input_change(line, "vertices", polygon_change(given, used, "b2PolygonShape::Set"));
  const polygon_mass m = stand_in_polygon_mass(vertices, density);
  line["result"] = {{"area", m.area}, {"centroid", vec_json(m.centroid_x, m.centroid_y)}, {"mass", m.mass},
                    {"inertia", m.inertia}};
  diagnostics(line)["vertices_used"] = vertices.size();
}

}  // namespace

int main() {
  // One handler per op your engine answers (docs/eval-protocol.md section 3
  // lists each op's request and result fields); every other op is answered
  // unsupported. isolation::worker answers the cases in a child process, so
  // that an engine that aborts or hangs costs one case ("crashed"), not the
  // run; a fresh child takes the next case. What the engine leaves behind
  // (globals, a corrupted heap) reaches the next case, as in the engine's own
  // programs: isolation::per_case forks a fresh child for every case, about
  // 2 ms more each. isolation::none runs the engine in this process, to
  // debug it.
  return run_adapter(engine_name, engine_precision,
                     {
                         {"mass.polygon", mass_polygon},
                         // {"gjk.distance", gjk_distance},  YOUR ENGINE: result {intersecting, distance, point_a, point_b}
                     },
                     isolation::worker);
}
