// A user's engine adapter on the installed adapter I/O (rigidref::protocol):
// its "engine" answers mass.polygon with rigidref itself, in double.
#include <rigidref/mass.hpp>
#include <rigidref/protocol/adapter_io.hpp>

#include <vector>

namespace {

using namespace rigidref::protocol;

void mass_polygon(ojson& line) {
  std::vector<rigidref::vec2<double>> vertices;
  for (const point& p : points(line.at("vertices"), "vertices")) vertices.push_back({p.x, p.y});
  const double density = line.contains("density") ? number(line["density"], "density") : 1.0;
  const auto m = rigidref::polygon_mass_from_density<double>(vertices, density);
  line["result"] = {{"area", m.area}, {"centroid", vec_json(m.centroid.x, m.centroid.y)}, {"mass", m.mass},
                    {"inertia", m.inertia}};
  diagnostics(line)["vertices_used"] = vertices.size();
}

}  // namespace

int main() { return run_adapter("consumer-adapter-1", "double", {{"mass.polygon", mass_polygon}}); }
