// The layout of an answer line (docs/eval-protocol.md section 4, as changed
// by issue 25), for the adapter tests: which top-level fields an answer may
// have, which result fields each op defines, and that the inputs come back
// unchanged, rounded to float by a float engine, or declared changed in
// diagnostics.input_changes. answer_layout_problems lists what breaks it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rigidref::test {

// The fields an answer line adds to the request's own.
inline const std::set<std::string>& answer_fields() {
  static const std::set<std::string> fields = {"engine", "precision", "result", "error", "allowances", "diagnostics"};
  return fields;
}

// The result fields of each op (section 3); nothing else may be in "result".
inline const std::map<std::string, std::set<std::string>>& result_fields() {
  static const std::map<std::string, std::set<std::string>> fields = {
      {"mass.polygon", {"area", "centroid", "mass", "inertia"}},
      {"mass.triangle", {"inertia"}},
      {"mass.regular_polygon", {"inertia"}},
      {"mass.circle", {"inertia"}},
      {"mass.rectangle", {"inertia"}},
      {"gjk.distance", {"intersecting", "distance", "point_a", "point_b", "status"}},
      {"epa.penetration", {"intersecting", "depth", "normal", "point_a", "point_b", "status"}},
      {"contact.manifold", {"status", "depth", "normal", "reference", "points"}},
      {"sat.rectangles", {"overlap", "d3"}},
      {"mat2.sqrt", {"x"}},
      {"mat2.polar", {"q", "s", "det_q"}},
      {"shape_match", {"angle", "rotation", "translation"}},
      {"step.pair", {"body1_after", "body2_after", "contacts", "sweeps"}},
  };
  return fields;
}

namespace detail {

inline void keys_within(const nlohmann::json& object, const std::set<std::string>& allowed, const std::string& where,
                        std::vector<std::string>& problems) {
  if (!object.is_object()) {
    problems.push_back(where + " is not an object");
    return;
  }
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) problems.push_back("unknown field \"" + key + "\" in " + where);
}

// A request value as a double, where it is a number or a decimal string.
inline bool as_number(const nlohmann::json& v, double& out) {
  if (v.is_number()) {
    out = v.get<double>();
    return true;
  }
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// Whether `answer` is `request` with every number equal or, for a float
// engine, rounded to float.
inline bool same_input(const nlohmann::json& request, const nlohmann::json& answer, bool float_engine) {
  double r = 0;
  if (answer.is_number() && as_number(request, r)) {
    const double a = answer.get<double>();
    return a == r || (float_engine && a == static_cast<double>(static_cast<float>(r)));
  }
  if (request.type() != answer.type()) return false;
  if (request.is_array()) {
    if (request.size() != answer.size()) return false;
    for (std::size_t i = 0; i < request.size(); ++i)
      if (!same_input(request[i], answer[i], float_engine)) return false;
    return true;
  }
  if (request.is_object()) {
    if (request.size() != answer.size()) return false;
    for (const auto& [key, value] : request.items())
      if (!answer.contains(key) || !same_input(value, answer[key], float_engine)) return false;
    return true;
  }
  return request == answer;
}

}  // namespace detail

// What is wrong with `answer` as the answer line of `request` (a JSON
// object within the protocol's limits); empty when nothing.
inline std::vector<std::string> answer_layout_problems(const nlohmann::json& request, const nlohmann::json& answer) {
  std::vector<std::string> problems;
  if (!answer.is_object()) return {"the answer is not an object"};
  for (const auto& [key, value] : answer.items())
    if (!request.contains(key) && !answer_fields().count(key))
      problems.push_back("unknown top-level field \"" + key + "\"");

  if (answer.contains("result")) {
    const nlohmann::json& result = answer["result"];
    const std::string op = request.value("op", nlohmann::json()).is_string() ? request["op"].get<std::string>() : "";
    const auto fields = result_fields().find(op);
    if (fields == result_fields().end()) {
      problems.push_back("a result for op \"" + op + "\", which defines no result fields");
    } else {
      detail::keys_within(result, fields->second, "result", problems);
      if (op == "contact.manifold" && result.contains("points")) {
        for (const nlohmann::json& p : result["points"])
          detail::keys_within(p, {"point", "separation", "reference_point", "feature_a", "feature_b"},
                              "result.points[]", problems);
      }
      if (op == "step.pair") {
        for (const char* body : {"body1_after", "body2_after"})
          if (result.contains(body))
            detail::keys_within(result[body], {"position", "angle", "velocity", "angular_velocity"},
                                std::string("result.") + body, problems);
        if (result.contains("contacts"))
          for (const nlohmann::json& c : result["contacts"])
            detail::keys_within(c, {"point", "points", "normal", "jn", "jt", "separation"}, "result.contacts[]",
                                problems);
      }
    }
  }

  if (answer.contains("allowances")) {
    const nlohmann::json& a = answer["allowances"];
    if (!a.is_object()) problems.push_back("allowances is not an object");
    else
      for (const auto& [name, amount] : a.items())
        if (!amount.is_number()) problems.push_back("allowance \"" + name + "\" is not a number");
  }

  std::set<std::string> declared;
  if (answer.contains("diagnostics")) {
    const nlohmann::json& d = answer["diagnostics"];
    if (!d.is_object()) {
      problems.push_back("diagnostics is not an object");
    } else if (d.contains("input_changes")) {
      const nlohmann::json& changes = d["input_changes"];
      if (!changes.is_object()) problems.push_back("diagnostics.input_changes is not an object");
      else
        for (const auto& [field, reason] : changes.items()) {
          if (!request.contains(field) || answer_fields().count(field))
            problems.push_back("input_changes names \"" + field + "\", no input field of the request");
          if (!reason.is_string() || reason.get<std::string>().empty())
            problems.push_back("input_changes.\"" + field + "\" gives no reason");
          declared.insert(field);
        }
    }
  }

  // The inputs: the request's fields but those the answer line sets itself
  // ("precision" is the request's working precision in eval, the engine's
  // in an answer).
  const bool float_engine = answer.value("precision", nlohmann::json()) == "float";
  for (const auto& [key, value] : request.items()) {
    if (answer_fields().count(key) || declared.count(key)) continue;
    if (!answer.contains(key)) problems.push_back("input \"" + key + "\" is missing");
    else if (!detail::same_input(value, answer[key], float_engine))
      problems.push_back("input \"" + key + "\" changed (undeclared): " + answer[key].dump().substr(0, 120));
  }
  return problems;
}

}  // namespace rigidref::test
