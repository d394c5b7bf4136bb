// A quick JSON reader for the common lines of `rigidref check` (the case
// set, the answer lines): plain ASCII objects, arrays, numbers and strings
// with simple escapes. It builds the very value nlohmann::json::parse builds
// (the same number types: unsigned, then signed 64-bit integers, then
// double; the last of repeated keys), with one allocation per array instead
// of a growing vector, and numbers read by std::from_chars.
//
// Anything else -- a byte outside printable ASCII, a \u escape, nesting
// deeper than 64, malformed text, a number from_chars cannot read -- gives
// nullopt, and the caller parses with nlohmann::json, whose value or error
// then stands: `parse_json` below. So the reader changes the time, never the
// value or the message (tests/read_line_test.cpp compares both readers).
#pragma once

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace rigidref::tools {

namespace fast_json_detail {

using json = nlohmann::json;

class reader {
 public:
  explicit reader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool document(json& out) {
    skip_space();
    if (!value(out, 0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  static constexpr int max_depth = 64;
  const char* p_;
  const char* end_;
  std::vector<json> stack_;  // the elements of the arrays being read
  std::string text_;         // a string with escapes, rebuilt

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\t' || *p_ == '\r')) ++p_;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  bool value(json& out, int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{': return object(out, depth + 1);
      case '[': return array(out, depth + 1);
      case '"': {
        std::string s;
        if (!string(s)) return false;
        out = std::move(s);
        return true;
      }
      case 't':
        if (!literal("true")) return false;
        out = true;
        return true;
      case 'f':
        if (!literal("false")) return false;
        out = false;
        return true;
      case 'n':
        if (!literal("null")) return false;
        out = nullptr;
        return true;
      default: return number(out);
    }
  }

  // JSON's grammar for numbers exactly; the value as nlohmann's lexer types it.
  bool number(json& out) {
    const char* start = p_;
    const char* q = p_;
    const bool negative = q != end_ && *q == '-';
    if (negative) ++q;
    if (q == end_) return false;
    if (*q == '0') {
      ++q;
    } else if (*q >= '1' && *q <= '9') {
      while (q != end_ && *q >= '0' && *q <= '9') ++q;
    } else {
      return false;
    }
    bool integer = true;
    if (q != end_ && *q == '.') {
      integer = false;
      ++q;
      const char* digits = q;
      while (q != end_ && *q >= '0' && *q <= '9') ++q;
      if (q == digits) return false;
    }
    if (q != end_ && (*q == 'e' || *q == 'E')) {
      integer = false;
      ++q;
      if (q != end_ && (*q == '+' || *q == '-')) ++q;
      const char* digits = q;
      while (q != end_ && *q >= '0' && *q <= '9') ++q;
      if (q == digits) return false;
    }
    p_ = q;
    if (integer) {
      // nlohmann: unsigned 64-bit without a sign, signed 64-bit with one,
      // and a double when the integer does not fit.
      if (!negative) {
        std::uint64_t u = 0;
        const auto r = std::from_chars(start, q, u);
        if (r.ec == std::errc() && r.ptr == q) {
          out = u;
          return true;
        }
      } else {
        std::int64_t i = 0;
        const auto r = std::from_chars(start, q, i);
        if (r.ec == std::errc() && r.ptr == q) {
          out = i;
          return true;
        }
      }
    }
    // from_chars reads the correctly rounded double, as strtod does; an
    // overflow or underflow it reports is left to nlohmann's strtod.
    double d = 0;
    const auto r = std::from_chars(start, q, d);
    if (r.ec != std::errc() || r.ptr != q) return false;
    out = d;
    return true;
  }

  // A string of printable ASCII with the escapes \" \\ \/ \b \f \n \r \t.
  bool string(std::string& out) {
    ++p_;  // the opening quote
    const char* start = p_;
    while (p_ != end_ && *p_ != '"' && *p_ != '\\') {
      if (static_cast<unsigned char>(*p_) < 0x20 || static_cast<unsigned char>(*p_) > 0x7e) return false;
      ++p_;
    }
    if (p_ == end_) return false;
    if (*p_ == '"') {
      out.assign(start, p_);
      ++p_;
      return true;
    }
    text_.assign(start, p_);
    while (p_ != end_ && *p_ != '"') {
      char c = *p_;
      if (c == '\\') {
        if (++p_ == end_) return false;
        switch (*p_) {
          case '"': c = '"'; break;
          case '\\': c = '\\'; break;
          case '/': c = '/'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'n': c = '\n'; break;
          case 'r': c = '\r'; break;
          case 't': c = '\t'; break;
          default: return false;  // \u and anything else: nlohmann's
        }
      } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) {
        return false;
      }
      text_.push_back(c);
      ++p_;
    }
    if (p_ == end_) return false;
    ++p_;
    out = text_;
    return true;
  }

  // After an item of an array or object: ',' (another item follows),
  // `close` (that was the last), or anything else (not JSON, or not ours).
  enum class after { more, end, bad };
  after separator(char close) {
    skip_space();
    if (p_ == end_) return after::bad;
    const char c = *p_++;
    return c == ',' ? after::more : c == close ? after::end : after::bad;
  }
  // An empty array or object: `close` right after the opening bracket, taken.
  bool closes_at_once(char close) {
    skip_space();
    if (p_ == end_ || *p_ != close) return false;
    ++p_;
    return true;
  }

  bool array(json& out, int depth) {
    if (depth > max_depth) return false;
    ++p_;  // [
    const std::size_t base = stack_.size();
    if (closes_at_once(']')) {
      out = json::array();
      return true;
    }
    for (;;) {
      skip_space();
      json item;  // not into stack_: a nested array grows it
      if (!value(item, depth)) return false;
      stack_.push_back(std::move(item));
      const after next = separator(']');
      if (next == after::bad) return false;
      if (next == after::end) break;
    }
    json::array_t items(std::make_move_iterator(stack_.begin() + static_cast<std::ptrdiff_t>(base)),
                        std::make_move_iterator(stack_.end()));
    stack_.resize(base);
    out = json(json::value_t::array);
    out.get_ref<json::array_t&>() = std::move(items);
    return true;
  }

  bool object(json& out, int depth) {
    if (depth > max_depth) return false;
    ++p_;  // {
    out = json(json::value_t::object);
    json::object_t& fields = out.get_ref<json::object_t&>();
    if (closes_at_once('}')) return true;
    std::string key;
    for (;;) {
      skip_space();
      if (p_ == end_ || *p_ != '"' || !string(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_space();
      json item;
      if (!value(item, depth)) return false;
      fields[key] = std::move(item);  // the last of repeated keys, as nlohmann
      const after next = separator('}');
      if (next == after::bad) return false;
      if (next == after::end) return true;
    }
  }
};

}  // namespace fast_json_detail

// The value of `text` when the quick reader takes it, else nullopt.
inline std::optional<nlohmann::json> parse_json_quick(std::string_view text) {
  nlohmann::json out;
  fast_json_detail::reader r(text);
  if (!r.document(out)) return std::nullopt;
  return out;
}

// nlohmann::json::parse(text), the same value or the same exception, sooner
// for the lines the quick reader takes.
inline nlohmann::json parse_json(std::string_view text) {
  if (std::optional<nlohmann::json> quick = parse_json_quick(text)) return std::move(*quick);
  return nlohmann::json::parse(text);
}

}  // namespace rigidref::tools
