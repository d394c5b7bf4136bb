// Markdown -> HTML through md4c (markdown_html.hpp): md_html renders, then
// one pass over its output restores the anchors and rewrites the links.
#include "report/markdown_html.hpp"

#include "report/html_escape.hpp"

#include <md4c-html.h>

#include <stdexcept>
#include <string_view>

namespace rigidref::tools {
namespace {

// Raw HTML off: the derivations write C++ such as wider_t<T> outside code
// spans, which must stay text. No strikethrough: "o~" means "o rounded".
constexpr unsigned parser_flags = MD_FLAG_TABLES | MD_FLAG_NOHTML;

void append_output(const MD_CHAR* text, MD_SIZE size, void* out) { static_cast<std::string*>(out)->append(text, size); }

bool anchor_id_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == '.';
}

// With raw HTML off, md_html writes <a id="X"></a> as escaped text; this is
// that text. md_html's own markup never contains it, and text cannot contain
// a literal "<code" or "<a href", so the output splits exactly.
constexpr std::string_view escaped_open = "&lt;a id=&quot;";
constexpr std::string_view escaped_close = "&quot;&gt;&lt;/a&gt;";

// The length of an escaped anchor at `at` (its id in `id`), 0 if none.
std::size_t escaped_anchor(std::string_view html, std::size_t at, std::string_view& id) {
  if (html.substr(at, escaped_open.size()) != escaped_open) return 0;
  std::size_t end = at + escaped_open.size();
  while (end < html.size() && anchor_id_char(html[end])) ++end;
  const std::size_t id_size = end - at - escaped_open.size();
  if (id_size == 0 || html.substr(end, escaped_close.size()) != escaped_close) return 0;
  id = html.substr(at + escaped_open.size(), id_size);
  return end + escaped_close.size() - at;
}

// x.md or x.md#frag, a sibling file (no scheme, no directory): the rendered
// derivation x.html. Everything else is left as md_html wrote it.
std::string rewrite_href(std::string_view href) {
  const std::size_t hash = href.find('#');
  const std::string_view path = href.substr(0, hash);
  const bool sibling_md = path.size() > 3 && path.substr(path.size() - 3) == ".md" &&
                          path.find_first_of("/:") == std::string_view::npos;
  if (!sibling_md) return std::string(href);
  return std::string(path.substr(0, path.size() - 3)) + ".html" +
         (hash == std::string_view::npos ? std::string() : std::string(href.substr(hash)));
}

// Copies md_html's output, turning escaped anchors outside <code> back into
// elements and rewriting the targets of <a href="...">.
std::string post_process(std::string_view html) {
  constexpr std::string_view code_open = "<code", code_close = "</code>", href_open = "<a href=\"";
  std::string out;
  out.reserve(html.size() + html.size() / 8);
  std::size_t at = 0;
  while (at < html.size()) {
    std::string_view id;
    if (html.substr(at, code_open.size()) == code_open) {
      const std::size_t end = html.find(code_close, at);
      const std::size_t stop = end == std::string_view::npos ? html.size() : end + code_close.size();
      out.append(html.substr(at, stop - at));
      at = stop;
    } else if (const std::size_t n = escaped_anchor(html, at, id); n > 0) {
      out.append("<a id=\"").append(id).append("\"></a>");
      at += n;
    } else if (html.substr(at, href_open.size()) == href_open) {
      const std::size_t start = at + href_open.size();
      const std::size_t end = html.find('"', start);
      if (end == std::string_view::npos) throw std::logic_error("md_html wrote an unterminated href");
      out.append(href_open).append(rewrite_href(html.substr(start, end - start))).append("\"");
      at = end + 1;
    } else {
      out += html[at++];
    }
  }
  return out;
}

const char* page_style = R"css(
body { font-family: Georgia, 'DejaVu Serif', serif; margin: 2rem auto; max-width: 52rem; color: #222;
       line-height: 1.55; padding: 0 1rem; }
h1, h2, h3 { font-family: system-ui, sans-serif; line-height: 1.25; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
pre { background: #f6f7f9; padding: 0.7rem 1rem; overflow-x: auto; border-left: 3px solid #8aa;
      font-size: 0.92rem; line-height: 1.45; }
code { font-family: 'DejaVu Sans Mono', ui-monospace, monospace; font-size: 0.9em; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
a:target + *, h2:has(> a:target), h3:has(> a:target), p:has(> a:target) { background: #fff6d5; }
nav { font-family: system-ui, sans-serif; font-size: 0.9rem; }
)css";

}  // namespace

std::string markdown_to_html(const std::string& markdown) {
  std::string html;
  if (md_html(markdown.data(), static_cast<MD_SIZE>(markdown.size()), append_output, &html, parser_flags, 0) != 0)
    throw std::runtime_error("md4c could not render the Markdown");
  return post_process(html);
}

std::string markdown_page(const std::string& title, const std::string& markdown, const std::string& back_link) {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
                     "</title>\n<style>" + page_style + "</style></head><body>\n";
  if (!back_link.empty())
    page += "<nav><a href=\"" + html_escape(back_link) + "\">&larr; verification report</a></nav>\n";
  page += markdown_to_html(markdown);
  page += "</body></html>\n";
  return page;
}

}  // namespace rigidref::tools
