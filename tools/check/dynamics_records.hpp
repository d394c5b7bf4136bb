// `rigidref check --dynamics-out FILE`: one JSON Lines record per step.pair
// case, for the report's dynamics section (tools/report/dynamics.hpp) and
// the committed data/validation/results/<engine>-dynamics.jsonl:
//   {"engine", "id", "line", "verdict",
//    "laws": {"<law>": {"verdict": "pass" | "fail", "error_eps", "budget_eps"}
//                   or {"verdict": "not judged", "reason": "..."}},
//    "contacts": [{"e", "un_before", "un_after",
//                  "restitution": "pass" | "fail" | "not judged"}],
//    "detail"}
// A case the laws did not judge (the engine rejected it, a non-finite
// number, an unreadable line) has its verdict and detail and no "laws".
// The contact velocities are those of the restitution law (rigidref/judge/step.hpp):
// u_n of the relative velocity at the point, v* before and v' after.
#pragma once

#include "protocol/json.hpp"

#include "rigidref/judge/step.hpp"

#include <cmath>
#include <string>

namespace rigidref::tools::check {

inline eval::json dynamics_record(const std::string& engine, const eval::json& id, std::size_t line,
                                  const std::string& verdict, const std::string& detail,
                                  const judge::step_verdict* judged) {
  using eval::json;
  json r = {{"engine", engine}, {"id", id}, {"line", line}, {"verdict", verdict}};
  if (judged != nullptr) {
    json laws = json::object();
    for (const judge::field_verdict& v : judged->fields) {
      if (!v.judged) {
        laws[v.field] = {{"verdict", "not judged"}, {"reason", v.detail}};
        continue;
      }
      laws[v.field] = {{"verdict", v.pass ? "pass" : "fail"}};
      laws[v.field]["error_eps"] = std::isfinite(v.error_eps) ? json(v.error_eps) : json(nullptr);
      laws[v.field]["budget_eps"] = std::isfinite(v.budget_eps) ? json(v.budget_eps) : json(nullptr);
    }
    r["laws"] = std::move(laws);
    json contacts = json::array();
    for (const judge::contact_velocities& c : judged->contacts)
      contacts.push_back({{"e", c.e},
                          {"un_before", c.un_before},
                          {"un_after", c.un_after},
                          {"restitution", !c.judged ? "not judged" : c.pass ? "pass" : "fail"}});
    r["contacts"] = std::move(contacts);
  }
  if (!detail.empty()) r["detail"] = detail;
  return r;
}

}  // namespace rigidref::tools::check
