#include "check/case_set.hpp"

#include "protocol/fast_json.hpp"
#include "protocol/read_line.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"

#include <cmath>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <utility>

namespace rigidref::tools::check {

case_set case_set::of(const json& one_case) {
  if (!one_case.is_object() || !one_case.contains("id") || !one_case.contains("op") || !one_case["op"].is_string())
    throw std::invalid_argument("a case needs \"id\" and a string \"op\"");
  case_set set;
  const std::string id = one_case["id"].dump();
  set.coverage_.ids_by_op[one_case["op"].get<std::string>()].push_back(id);
  set.by_id_.emplace(id, one_case);
  return set;
}

case_set case_set::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open the case set " + path);
  case_set set;
  std::string text;
  std::size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string where = path + " line " + std::to_string(line) + ": ";
    json c;
    try {
      c = parse_json(text);
    } catch (const json::parse_error& e) {
      throw std::runtime_error(where + "not JSON (" + e.what() + ")");
    }
    if (!c.is_object() || !c.contains("id") || !c.contains("op") || !c["op"].is_string())
      throw std::runtime_error(where + "a case needs \"id\" and a string \"op\"");
    const std::string id = c["id"].dump();
    if (set.by_id_.count(id) != 0) throw std::runtime_error(where + "repeated id " + id);
    set.coverage_.ids_by_op[c["op"].get<std::string>()].push_back(id);
    set.by_id_.emplace(id, std::move(c));
  }
  return set;
}

const json* case_set::find(const json& id) const {
  const auto it = by_id_.find(id.dump());
  return it == by_id_.end() ? nullptr : &it->second;
}

namespace {

// A JSON number or a numeric string, exactly; nullopt for anything else.
std::optional<exact> number_value(const json& v) {
  if (v.is_number()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) return std::nullopt;
    return to_exact(d);
  }
  if (v.is_string()) {
    try {
      return parse_exact(v.get_ref<const std::string&>());
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// The case's value rounded to the engine's precision.
exact rounded(const exact& q, const std::string& precision) {
  if (precision == "float") return to_exact(round_to<float>(q));
  if (precision == "double") return to_exact(round_to<double>(q));
  if (precision == "long double") return to_exact(round_to<long double>(q));
  if (precision == "mp50") return to_exact(round_to<mp50>(q));
  if (precision == "mp100") return to_exact(round_to<mp100>(q));
  if (precision == "exact") return q;
  throw std::invalid_argument("precision: expected float, double, long double, mp50, mp100 or exact, got \"" +
                              precision + "\"");
}

std::string brief(const json& v) {
  std::string s = v.dump();
  return s.size() > 48 ? s.substr(0, 45) + "..." : s;
}

// Every difference of `answer` from `want` (the case's value) beyond rounding.
void differences(const json& want, const json& answer, const std::string& path, const std::string& precision,
                 std::vector<std::string>& out) {
  if (out.size() >= 8) return;  // enough to say what changed
  // The same JSON value has no difference; most inputs come back as given,
  // and this saves turning them into rationals.
  if (want == answer) return;
  if (const std::optional<exact> w = number_value(want)) {  // a number, or a numeric string such as "0.1"
    const std::optional<exact> a = number_value(answer);
    if (a && (*a == *w || *a == rounded(*w, precision))) return;
    out.push_back(path + ": case " + brief(want) + ", answer " + brief(answer));
    return;
  }
  if (want.is_array() && answer.is_array()) {
    if (want.size() != answer.size()) {
      out.push_back(path + ": case has " + std::to_string(want.size()) + " entries, answer " +
                    std::to_string(answer.size()));
      return;
    }
    for (std::size_t i = 0; i < want.size(); ++i)
      differences(want[i], answer[i], path + "[" + std::to_string(i) + "]", precision, out);
    return;
  }
  if (want.is_object() && answer.is_object()) {
    for (const auto& [key, value] : want.items()) {
      if (!answer.contains(key)) {
        out.push_back(path + "." + key + ": missing in the answer");
        continue;
      }
      differences(value, answer[key], path + "." + key, precision, out);
    }
    for (const auto& [key, value] : answer.items())
      if (!want.contains(key)) out.push_back(path + "." + key + ": not in the case");
    return;
  }
  if (want != answer) out.push_back(path + ": case " + brief(want) + ", answer " + brief(answer));
}

}  // namespace

held_inputs hold_to_case(const json& case_line, json& answer_line, const std::string& precision,
                         const json& declared_changes) {
  held_inputs out;
  (void)rounded(0, precision);  // validates the name
  out.request = json::object();
  for (const auto& [key, want] : case_line.items()) {
    if (is_case_metadata(key)) continue;
    const bool declared = declared_changes.is_object() && declared_changes.contains(key);
    if (!answer_line.contains(key)) {
      if (declared) {
        out.declared.push_back(key);
      } else {
        out.changed.push_back(key + ": missing in the answer");
      }
      out.request[key] = want;
      continue;
    }
    std::vector<std::string> diff;
    differences(want, answer_line[key], key, precision, diff);
    if (diff.empty()) {
      out.request[key] = std::move(answer_line[key]);  // the inputs as the engine used them, moved
    } else if (declared) {
      out.declared.push_back(key);
      out.request[key] = want;  // a declared change does not excuse the answer
    } else {
      out.changed.insert(out.changed.end(), diff.begin(), diff.end());
      out.request[key] = want;
    }
  }
  return out;
}

}  // namespace rigidref::tools::check
