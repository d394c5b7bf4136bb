// derivations/*.md as HTML pages that read well offline (no network, no
// external renderer). md4c (md_html, CommonMark with GitHub tables) does
// the Markdown; this file adds what the report needs around it:
//   - the equation anchors <a id="D-TOPIC-N"></a> become real anchors, so
//     links such as gjk.html#D-GJK-19 land (every other HTML in the
//     derivations, e.g. wider_t<T> outside a code span, stays text);
//   - links to a sibling derivation, x.md or x.md#D-..., point to the
//     rendered x.html;
//   - the page: title, inline CSS, a back link to the report.
#pragma once

#include <string>

namespace rigidref::tools {

// The body HTML of one Markdown document.
std::string markdown_to_html(const std::string& markdown);

// A complete page: title, inline CSS, the body, a back link to the report.
std::string markdown_page(const std::string& title, const std::string& markdown, const std::string& back_link);

}  // namespace rigidref::tools
