// Answer lines as engines really write them: Python's json.dumps and
// JavaScript's console.log write a non-finite number as the bare tokens
// NaN, Infinity, -Infinity, which JSON does not have. The judge reads each
// such token outside a string as null, the value the protocol gives a
// non-finite number (docs/eval-protocol.md 4.1), so the field fails as
// "not finite" instead of the whole line being unreadable.
#pragma once

#include <string>
#include <string_view>

namespace rigidref::tools::check {

// `text` with every NaN, Infinity, -Infinity and +Infinity token outside a
// string replaced by null; anything else unchanged.
inline std::string non_finite_tokens_as_null(std::string_view text) {
  // Every token holds an N or an I: a line with neither, as most are, is
  // copied as it is (two one-character searches, which run as memchr).
  if (text.find('N') == std::string_view::npos && text.find('I') == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  bool in_string = false, escaped = false;
  const auto is_word = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    const bool word_start = i == 0 || !is_word(text[i - 1]);
    if (word_start) {
      std::size_t skip = 0;
      for (const std::string_view token : {"-Infinity", "+Infinity", "Infinity", "NaN"})
        if (text.substr(i, token.size()) == token &&
            (i + token.size() == text.size() || !is_word(text[i + token.size()]))) {
          skip = token.size();
          break;
        }
      if (skip > 0) {
        out += "null";
        i += skip - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

}  // namespace rigidref::tools::check
