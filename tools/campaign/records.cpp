#include "campaign/records.hpp"
#include "campaign/rows.hpp"

#include <cmath>
#include <limits>

namespace rigidref::tools::campaign {

json number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

double number_of(const json& v) {
  if (v.is_number()) return v.get<double>();
  const std::string s = v.get<std::string>();
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  throw std::invalid_argument("expected a number, \"inf\", \"-inf\" or \"nan\", got \"" + s + "\"");
}

json header_record(const campaign_options& o, const shard::spec& s) {
  return json{{"record", "header"},
              {"tool", "rigidref campaign"},
              {"format", record_format},
              {"seed", o.seed},
              {"pairs", o.pairs},
              {"mp_pairs", o.mp_pairs},
              {"type", o.type},
              {"kinds", resolved_kinds(o)},
              {"first", o.first},
              {"max_query_ms", o.max_query_ms},
              {"shard", s.k},
              {"of", s.n}};
}

campaign_options options_of(const json& h, const std::string& where) {
  try {
    if (h.at("tool").get<std::string>() != "rigidref campaign")
      throw shard::merge_error(where + ": a shard of " + h.at("tool").dump() + ", not of rigidref campaign");
    if (h.at("format").get<int>() != record_format)
      throw shard::merge_error(where + ": record format " + h.at("format").dump() + ", this rigidref reads " +
                               std::to_string(record_format));
    campaign_options o;
    o.seed = h.at("seed").get<std::uint64_t>();
    o.pairs = h.at("pairs").get<std::size_t>();
    o.mp_pairs = h.at("mp_pairs").get<std::size_t>();
    o.type = h.at("type").get<std::string>();
    o.kinds = h.at("kinds").get<std::vector<std::string>>();
    o.first = h.at("first").get<std::uint64_t>();
    o.max_query_ms = h.at("max_query_ms").get<double>();
    return o;
  } catch (const json::exception& e) {
    throw shard::merge_error(where + ": bad header record: " + e.what());
  }
}

json pair_record(const std::string& type, const std::string& kind, std::uint64_t index, std::uint64_t i,
                 const verify::campaign_row& p) {
  json r{{"record", "pair"},
         {"type", type},
         {"kind", kind},
         {"index", index},
         {"i", i},
         {"oracle", p.touching ? "touching" : (p.intersecting ? "intersecting" : "separated")},
         {"dec", p.decision_mismatches},
         {"bound", p.bound_failures},
         {"err", p.errors},
         {"hang", p.hangs},
         {"cap", {p.gjk_caps, p.epa_caps}},
         {"fb", {p.gjk_fallbacks, p.epa_fallbacks}}};
  if (!p.worst_case.empty()) {
    r["eps"] = number(p.worst_eps);
    r["ulps"] = number(p.worst_ulps);
    r["metric"] = p.worst_metric;
  }
  if (!p.failures.empty()) r["failures"] = p.failures;
  return r;
}

verify::campaign_row pair_row(const json& r) {
  verify::campaign_row p;
  p.type = r.at("type").get<std::string>();
  p.kind = r.at("kind").get<std::string>();
  p.pairs = 1;
  const std::string oracle = r.at("oracle").get<std::string>();
  if (oracle == "touching") p.touching = 1;
  else if (oracle == "intersecting") p.intersecting = 1;
  else if (oracle == "separated") p.separated = 1;
  else throw std::invalid_argument("oracle: expected separated, touching or intersecting, got \"" + oracle + "\"");
  p.decision_mismatches = r.at("dec").get<std::size_t>();
  p.bound_failures = r.at("bound").get<std::size_t>();
  p.errors = r.at("err").get<std::size_t>();
  p.hangs = r.at("hang").get<std::size_t>();
  p.gjk_caps = r.at("cap").at(0).get<std::size_t>();
  p.epa_caps = r.at("cap").at(1).get<std::size_t>();
  p.gjk_fallbacks = r.at("fb").at(0).get<std::size_t>();
  p.epa_fallbacks = r.at("fb").at(1).get<std::size_t>();
  if (r.contains("metric")) {
    p.worst_eps = number_of(r.at("eps"));
    p.worst_ulps = number_of(r.at("ulps"));
    p.worst_metric = r.at("metric").get<std::string>();
    p.worst_case = worst_placeholder;
  }
  if (r.contains("failures")) p.failures = r.at("failures").get<std::vector<std::string>>();
  return p;
}

}  // namespace rigidref::tools::campaign
