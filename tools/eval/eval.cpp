// `rigidref eval`: the JSON Lines protocol of docs/eval-protocol.md.
//
// One answer line per request line, in input order, flushed after each line
// (a driver may write a request, read its answer, write the next). Decisions
// where the protocol leaves room:
//   - A line that is empty or only whitespace (after dropping a CRLF's '\r')
//     is not a request and gets no answer; every other line gets exactly one.
//   - A line that is not JSON, or is JSON but not an object, is parse_error
//     with "id": null. JSON nested deeper than max_nesting levels is
//     parse_error too (it would only exhaust the stack). Its message starts
//     with the input line ("input line 17, column 4: ", lines counted from
//     1, blank ones included; protocol/json_error.hpp), since the id cannot
//     tell which request it answers.
//   - An object without "op", or whose "op" is not a string, is invalid_input
//     (its id is echoed); a string op not in the table is unknown_op.
//   - "id" is echoed as the JSON value it parsed to (missing: null). Numbers
//     go through a double like any JSON number (integers up to 64 bits stay
//     exact); a number that overflows a double is echoed as null.
//   - "precision" not a string or not one of the six names: invalid_input.
//   - Unknown fields are ignored.
//   - Errors: rigidref::invalid_input, domain_error, unsupported and
//     no_convergence map 1:1 to their codes. Anything else is a bug or
//     resource exhaustion, reported (not hidden) as invalid_input with a
//     message starting "internal error" (the protocol has no other code).
#include "eval/eval.hpp"

#include "protocol/json.hpp"
#include "protocol/json_error.hpp"
#include "protocol/limits.hpp"
#include "protocol/read_line.hpp"
#include "eval/op_table.hpp"

#include "rigidref/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <istream>
#include <iterator>
#include <new>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rigidref::tools {
namespace {

using eval::json;
using eval::ojson;

using eval::limits::max_nesting;
using eval::limits::nesting_depth;

const eval::op_table& op_table_instance() {
  static const eval::op_table table = [] {
    eval::op_table t;
    eval::add_mass_ops(t);
    eval::add_matrix_ops(t);
    eval::add_impulse_ops(t);
    eval::add_collision_ops(t);
    eval::add_step_ops(t);
    eval::add_manifold_ops(t);
    return t;
  }();
  return table;
}

// A request that gets an error answer.
struct request_error {
  std::string code;
  std::string message;
};

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

// The length of the JSON number at the start of `s` as nlohmann's lexer
// reads it (-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?), or 0 when
// `s` does not start with a well-formed one.
std::size_t json_number_length(std::string_view s) {
  const auto digits_from = [&](std::size_t i) {
    std::size_t j = i;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    return j;
  };
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  if (i == s.size() || s[i] < '0' || s[i] > '9') return 0;
  i = s[i] == '0' ? i + 1 : digits_from(i);
  if (i < s.size() && s[i] == '.') {
    const std::size_t j = digits_from(i + 1);
    if (j == i + 1) return 0;
    i = j;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t k = i + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    const std::size_t j = digits_from(k);
    if (j == k) return 0;
    i = j;
  }
  return i;
}

// A line with its overflowing numbers replaced by marker strings, and where
// the replacements moved the text: (end of a marker in `text`, bytes it
// added), in order.
struct marked_line {
  std::string text;
  std::vector<std::pair<std::size_t, std::size_t>> growth;

  // The column in the original line of column `c` of `text`.
  std::size_t original_column(std::size_t c) const {
    std::size_t shift = 0;
    for (const auto& [end, added] : growth)
      if (end <= c) shift += added;
    return c - shift;
  }
};

// The line with every well-formed number that overflows a double, in a
// value position (not an object key), replaced by the string
// "<overflow_marker><number>" (see protocol/json.hpp). Anything else is left
// as it is, so a line that is not JSON for another reason still fails to
// parse, at the same place. Only used after nlohmann reported a number
// overflow, so well-formed lines are untouched.
marked_line with_overflow_markers(std::string_view line) {
  marked_line out;
  std::vector<char> open;  // the enclosing '[' and '{'
  char last = 0;           // the last character outside strings and blanks
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < line.size();) {
    const char c = line[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false, last = '"';
      out.text += c;
      ++i;
      continue;
    }
    const std::size_t n = (c == '-' || (c >= '0' && c <= '9')) ? json_number_length(line.substr(i)) : 0;
    if (n == 0) {
      if (c == '"') in_string = true;
      else if (c == '[' || c == '{') open.push_back(c);
      else if ((c == ']' || c == '}') && !open.empty()) open.pop_back();
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') last = c;
      out.text += c;
      ++i;
      continue;
    }
    const bool in_object = !open.empty() && open.back() == '{';
    const bool value_position = last == 0 || last == ':' || last == '[' || (last == ',' && !in_object);
    const std::string token(line.substr(i, n));
    if (value_position && std::isinf(std::strtod(token.c_str(), nullptr))) {
      const std::string marker = "\"\\u0001" + std::string(eval::overflow_marker.substr(1)) + token + "\"";
      out.text += marker;
      out.growth.emplace_back(out.text.size(), marker.size() - token.size());
    } else {
      out.text += token;
    }
    last = '0';
    i += n;
  }
  return out;
}

// "input line N: " (nothing for input_line 0: a line from no file).
std::string at_line(std::size_t input_line) {
  return input_line > 0 ? "input line " + std::to_string(input_line) + ": " : std::string();
}

// Parses a request line; nullopt with `error` set when it is not a JSON object.
std::optional<json> parse_request(const std::string& line, std::size_t input_line, request_error& error) {
  if (nesting_depth(line) > max_nesting) {
    error = {"parse_error", at_line(input_line) + "JSON nested deeper than " + std::to_string(max_nesting) +
                                " levels" + eval::limits::limit_note("max_nesting")};
    return std::nullopt;
  }
  json request;
  try {
    request = json::parse(line);
  } catch (const nlohmann::json::out_of_range&) {
    // A number too large for a double: valid JSON, so answer the request and
    // let the field that holds the number report it (invalid_input).
    const marked_line marked = with_overflow_markers(line);
    try {
      request = json::parse(marked.text);
    } catch (const nlohmann::json::exception& e) {  // not JSON for another reason as well
      json_error_parts parts = split_json_error(e);
      if (parts.column) parts.column = marked.original_column(*parts.column);
      error = {"parse_error", describe_json_error(parts, input_line)};
      return std::nullopt;
    }
  } catch (const nlohmann::json::exception& e) {
    error = {"parse_error", describe_json_error(e, input_line)};
    return std::nullopt;
  }
  if (!request.is_object()) {
    error = {"parse_error",
             at_line(input_line) + "a request must be a JSON object, got " + std::string(request.type_name())};
    return std::nullopt;
  }
  return request;
}

// The id to echo: the parsed value, or null for a number that overflowed.
json echo_id(const json& request) {
  const auto it = request.find("id");
  if (it == request.end() || eval::is_overflow_marker(*it)) return nullptr;
  return *it;
}

std::string known_ops() {
  std::string list;
  for (const auto& [name, entry] : op_table_instance()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

std::string known_precisions() {
  std::string list;
  for (std::string_view name : eval::precision_names())
    list += (list.empty() ? "\"" : ", \"") + std::string(name) + "\"";
  return list;
}

// The "result" object and the index of the precision; throws request_error
// (unknown_op) or rigidref's typed errors.
std::pair<ojson, std::size_t> answer_request(const json& request) {
  const auto op_it = request.find("op");
  if (op_it == request.end()) throw invalid_input("missing field \"op\" (the operation to run, e.g. \"mass.polygon\")");
  if (!op_it->is_string() || eval::is_overflow_marker(*op_it))
    throw invalid_input("op: expected a string, got " + eval::brief(*op_it));
  const std::string& op = op_it->get_ref<const std::string&>();
  const auto& table = op_table_instance();
  const auto entry = table.find(op);
  if (entry == table.end())
    throw request_error{"unknown_op", "unknown op " + eval::brief(*op_it) + "; known ops: " + known_ops()};

  std::size_t precision = *eval::precision_index("double");
  if (const auto p = request.find("precision"); p != request.end()) {
    const auto index = p->is_string() && !eval::is_overflow_marker(*p)
                           ? eval::precision_index(p->get_ref<const std::string&>())
                           : std::nullopt;
    if (!index) throw invalid_input("precision: expected one of " + known_precisions() + ", got " + eval::brief(*p));
    precision = *index;
  }
  return {entry->second.handlers[precision](eval::fields(request)), precision};
}

std::string error_line(const json& id, const std::string& code, const std::string& message) {
  const ojson error = {{"code", code}, {"message", message}};
  return "{\"id\":" + eval::to_json_text(id) + ",\"ok\":false,\"error\":" + eval::to_json_text(error) + "}";
}

}  // namespace

// The answer line for one request line.
std::string answer_line(const std::string& line, std::size_t input_line) {
  if (line.size() > eval::limits::max_line_bytes)  // not parsed: its id is unknown
    return error_line(nullptr, "invalid_input",
                      at_line(input_line) + "request line longer than " +
                          std::to_string(eval::limits::max_line_bytes) + " bytes" +
                          eval::limits::limit_note("max_line_bytes"));
  request_error parse_failure;
  const std::optional<json> request = parse_request(line, input_line, parse_failure);
  if (!request) return error_line(nullptr, parse_failure.code, parse_failure.message);
  const json id = echo_id(*request);
  try {
    const auto [result, precision] = answer_request(*request);
    std::string text = "{\"id\":" + eval::to_json_text(id) + ",\"ok\":true,\"precision\":";
    text += eval::to_json_text(ojson(std::string(eval::precision_names()[precision])));
    text += ",\"result\":" + eval::to_json_text(result) + "}";
    return text;
  } catch (const request_error& e) {
    return error_line(id, e.code, e.message);
  } catch (const rigidref::invalid_input& e) {
    return error_line(id, "invalid_input", e.what());
  } catch (const rigidref::domain_error& e) {
    return error_line(id, "domain_error", e.what());
  } catch (const rigidref::unsupported& e) {
    return error_line(id, "unsupported", e.what());
  } catch (const rigidref::no_convergence& e) {
    return error_line(id, "no_convergence", e.what());
  } catch (const std::bad_alloc&) {
    return error_line(id, "invalid_input", "internal error: out of memory while answering this request");
  } catch (const std::exception& e) {
    return error_line(id, "invalid_input", std::string("internal error (please report): ") + e.what());
  } catch (...) {
    return error_line(id, "invalid_input", "internal error (please report): unknown exception");
  }
}

std::string ops_help() {
  std::string text = "Ops (docs/eval-protocol.md specifies every field):\n";
  for (const auto& [name, entry] : op_table_instance()) {
    text += "  " + name + std::string(name.size() < 22 ? 22 - name.size() : 1, ' ') + entry.doc.summary + "\n";
    text += std::string(24, ' ') + "in:  " + entry.doc.inputs + "\n";
    text += std::string(24, ' ') + "out: " + entry.doc.results + "\n";
  }
  return text;
}

std::string answer_line(const std::string& line) { return answer_line(line, 0); }

int run_eval(std::istream& in, std::ostream& out) {
  std::string line;
  std::size_t input_line = 0;  // every line counts, blank ones too, as in an editor
  while (read_line(in, line, eval::limits::max_line_bytes + 2)) {  // +2: the '\r' and one byte over
    ++input_line;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF input
    if (is_blank(line)) continue;                               // not a request: no answer
    std::string answer;
    try {
      answer = answer_line(line, input_line);
    } catch (...) {  // even the error path failed (e.g. out of memory): still one line
      answer = R"({"id":null,"ok":false,"error":{"code":"invalid_input",)"
               R"("message":"internal error while writing the answer"}})";
    }
    out << answer << '\n' << std::flush;
  }
  return 0;
}

}  // namespace rigidref::tools
