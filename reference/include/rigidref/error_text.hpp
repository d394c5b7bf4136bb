// How error messages quote what the user wrote. A number string may be 800
// characters long, a JSON token a whole 1 MiB line: a message shows at most
// a few dozen characters of it, says it was cut ("...") and how long it was,
// so that it stays readable and still tells the user which value is meant:
// with t = "1" followed by 400 zeros,
//   excerpt(t)                        100000000000000000000000... (401 characters)
//   quoted_excerpt(t)                 "100000000000000000000000..." (401 characters)
//   quoted_tail_excerpt(t, 24, '\'')  '...000000000000000000000000' (401 characters)
// "Characters" are UTF-8 code points; a cut never splits one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

// How many characters an excerpt keeps: a double's longest shortest text,
// "-1.7976931348623157e+308", has 24.
inline constexpr std::size_t excerpt_chars = 24;

namespace detail {

inline bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace detail

// The number of UTF-8 code points of `text` (bytes that start one).
inline std::size_t char_count(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += detail::is_utf8_continuation(c) ? 0 : 1;
  return n;
}

// The longest prefix of `text` with at most `keep` characters.
inline std::string_view char_prefix(std::string_view text, std::size_t keep) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (detail::is_utf8_continuation(text[i])) continue;
    if (chars == keep) return text.substr(0, i);
    ++chars;
  }
  return text;
}

// The longest suffix of `text` with at most `keep` characters.
inline std::string_view char_suffix(std::string_view text, std::size_t keep) {
  if (keep == 0) return text.substr(text.size());
  std::size_t chars = 0;
  for (std::size_t i = text.size(); i > 0; --i) {
    if (detail::is_utf8_continuation(text[i - 1])) continue;
    if (++chars == keep) return text.substr(i - 1);
  }
  return text;
}

namespace detail {

inline std::string length_note(std::string_view text) {
  return " (" + std::to_string(char_count(text)) + " characters)";
}

}  // namespace detail

// `text` when it has at most `keep` characters, else its first `keep`, "..."
// and its length.
inline std::string excerpt(std::string_view text, std::size_t keep = excerpt_chars) {
  const std::string_view head = char_prefix(text, keep);
  if (head.size() == text.size()) return std::string(text);
  return std::string(head) + "..." + detail::length_note(text);
}

// excerpt() between quotes (double by default), the length after them.
inline std::string quoted_excerpt(std::string_view text, std::size_t keep = excerpt_chars, char quote = '"') {
  const std::string_view head = char_prefix(text, keep);
  if (head.size() == text.size()) return quote + std::string(text) + quote;
  return quote + std::string(head) + "..." + quote + detail::length_note(text);
}

// The same with the end of `text` instead of its start (where a parser
// stopped reading): '...0000e,' (439 characters).
inline std::string quoted_tail_excerpt(std::string_view text, std::size_t keep = excerpt_chars, char quote = '"') {
  const std::string_view tail = char_suffix(text, keep);
  if (tail.size() == text.size()) return quote + std::string(text) + quote;
  return quote + std::string("...") + std::string(tail) + quote + detail::length_note(text);
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
