// HTML escaping, shared by every page the tools write: the report, the
// rendered derivations, the scene plots.
#pragma once

#include <string>
#include <string_view>

namespace rigidref::tools {

// &, <, >, " as entities: safe as element text and inside a double-quoted
// attribute value.
inline std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace rigidref::tools
