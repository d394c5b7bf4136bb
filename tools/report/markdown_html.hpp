// A small Markdown-to-HTML renderer for derivations/*.md, so the report can
// ship the derivations as pages that read well offline (no network, no
// external renderer). It covers exactly what the derivations use: headings,
// paragraphs, fenced and indented code (the equations), nested lists,
// tables, inline code, bold, italics, links (.md links become .html) and the
// anchors <a id="D-..."></a>. Everything else is escaped, never interpreted.
#pragma once

#include <string>

namespace rigidref::tools {

// The body HTML of one Markdown document.
std::string markdown_to_html(const std::string& markdown);

// A complete page: title, inline CSS, the body, a back link to the report.
std::string markdown_page(const std::string& title, const std::string& markdown, const std::string& back_link);

}  // namespace rigidref::tools
