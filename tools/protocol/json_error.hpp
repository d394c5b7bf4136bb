// nlohmann's JSON errors restated for the reader of a JSON Lines file, for
// eval's parse_error answers and check's unreadable lines.
//
// nlohmann says "[json.exception.parse_error.101] parse error at line 1,
// column 5: syntax error ...": its line is the line within the JSON text,
// always 1 for one line of a JSON Lines file, which a user reads as the
// file's line. The restatement names the input line instead and keeps
// nlohmann's explanation, with the text it quotes cut short:
//   input line 17, column 4: syntax error while parsing object key - invalid
//   string: missing closing quote; last read: '"a'; expected string literal
// Columns count bytes from 1 (nlohmann's count of bytes read on the line).
#pragma once

#include "rigidref/error_text.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rigidref::tools {

// The parts of one nlohmann error message.
struct json_error_parts {
  std::size_t line = 1;               // line within the JSON text (1: the first)
  std::optional<std::size_t> column;  // absent when nlohmann gives no position
  std::string explanation;            // what went wrong, quoted text cut short
};

namespace detail {

// Reads the decimal number at the start of `s` and drops it from `s`.
inline std::optional<std::size_t> take_number(std::string_view& s) {
  std::size_t n = 0, i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9' && i < 18; ++i) n = n * 10 + static_cast<std::size_t>(s[i] - '0');
  if (i == 0) return std::nullopt;
  s.remove_prefix(i);
  return n;
}

inline bool take(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// `text` with the token quoted after `lead` ("last read: '", "number overflow
// parsing '") cut short. The token runs to the last "'" before `tail` (the
// token itself may hold quotes; nlohmann appends `tail` last) or, without
// `tail`, to the last "'" of the text.
inline std::string shorten_token(const std::string& text, std::string_view lead, std::string_view tail,
                                 bool keep_end) {
  const std::size_t start = text.find(lead);
  if (start == std::string::npos) return text;
  const std::size_t from = start + lead.size();
  std::size_t to = tail.empty() ? text.rfind('\'') : text.rfind(tail);
  if (!tail.empty() && to == std::string::npos) to = text.rfind('\'');
  if (to == std::string::npos || to < from) return text;
  const std::string_view token = std::string_view(text).substr(from, to - from);
  const std::string quoted = keep_end ? quoted_tail_excerpt(token, excerpt_chars, '\'')
                                      : quoted_excerpt(token, excerpt_chars, '\'');
  return text.substr(0, from - 1) + quoted + text.substr(to + 1);
}

}  // namespace detail

// Splits nlohmann's message: drops its "[json.exception...] " prefix and
// "parse error at line L, column C: ", keeps L and C, cuts quoted tokens
// short (the token where parsing stopped keeps its end, an overflowing
// number its start).
inline json_error_parts split_json_error(const nlohmann::json::exception& e) {
  std::string_view m = e.what();
  if (!m.empty() && m[0] == '[')
    if (const auto close = m.find("] "); close != std::string_view::npos) m.remove_prefix(close + 2);
  json_error_parts parts;
  if (detail::take(m, "parse error")) {
    std::string_view rest = m;
    if (detail::take(rest, " at line ")) {
      const auto line = detail::take_number(rest);
      std::optional<std::size_t> column;
      if (line && detail::take(rest, ", column ")) column = detail::take_number(rest);
      if (line && column) {
        parts.line = *line;
        parts.column = column;
        m = rest;
      }
    } else if (detail::take(rest, " at byte ")) {  // a position without lines: the JSON text is one line
      if (const auto byte = detail::take_number(rest)) {
        parts.column = byte;
        m = rest;
      }
    }
    detail::take(m, ": ");
  }
  parts.explanation = std::string(m);
  parts.explanation = detail::shorten_token(parts.explanation, "last read: '", "'; expected ", true);
  parts.explanation = detail::shorten_token(parts.explanation, "number overflow parsing '", "", false);
  return parts;
}

// "input line N, column C: explanation", where N is the input line of the
// JSON text's line parts.line when the text starts on `input_line`.
// input_line 0 means the text comes from no file: "column C: explanation".
inline std::string describe_json_error(const json_error_parts& parts, std::size_t input_line) {
  std::string where;
  if (input_line > 0) where = "input line " + std::to_string(input_line + parts.line - 1);
  if (parts.column) where += (where.empty() ? "column " : ", column ") + std::to_string(*parts.column);
  return where.empty() ? parts.explanation : where + ": " + parts.explanation;
}

// The message for a JSON error in the text that starts on `input_line`
// (counted from 1, blank lines included), e.g. for `rigidref check`:
//   catch (const nlohmann::json::exception& e) { detail = describe_json_error(e, line_number); }
inline std::string describe_json_error(const nlohmann::json::exception& e, std::size_t input_line) {
  return describe_json_error(split_json_error(e), input_line);
}

}  // namespace rigidref::tools
