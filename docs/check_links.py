#!/usr/bin/env python3
"""Offline link check of the rendered book (standard library only).

Usage: python3 docs/check_links.py [BOOK_DIR]   (default: docs/book next to this script)

Every relative `href` and `src` of every HTML page under BOOK_DIR must name a file that
exists (a folder counts if it holds an index.html or a README.md), and every `#anchor`
must be an `id` (or `name`) in the page it points into. Links with a scheme (https:,
mailto:, ...) are not fetched. The repository's Markdown front pages (README.md, CHANGELOG.md
and every README.md under results/) are checked too: each relative link must name a file or
folder that exists. Exits with 1 and one line per broken link
(`page: link: reason`), with 2 if BOOK_DIR holds no HTML page.
"""

import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

# mdBook's print page repeats every chapter with rewritten anchors; the chapters
# themselves are checked, so it is left out.
SKIP_PAGES = {"print.html", "404.html"}


class Page(HTMLParser):
    """The links and the anchor targets of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and tag != "meta":
                self.ids.add(value)
            elif name in ("href", "src") and tag in ("a", "img", "link", "script", "source"):
                self.links.append(value)


def parse(path, cache):
    if path not in cache:
        page = Page()
        with open(path, encoding="utf-8", errors="replace") as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def check(book):
    cache = {}
    pages = []
    for root, _dirs, files in os.walk(book):
        for name in sorted(files):
            if name.endswith(".html") and name not in SKIP_PAGES:
                pages.append(os.path.join(root, name))
    if not pages:
        print(f"no HTML pages under {book}: run `mdbook build docs` first", file=sys.stderr)
        return None
    broken = []
    for page_path in sorted(pages):
        page = parse(page_path, cache)
        shown = os.path.relpath(page_path, book)
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            target_path = page_path
            if parts.path:
                target_path = os.path.normpath(
                    os.path.join(os.path.dirname(page_path), unquote(parts.path))
                )
                if os.path.isdir(target_path):
                    for index in ("index.html", "README.md"):
                        if os.path.isfile(os.path.join(target_path, index)):
                            target_path = os.path.join(target_path, index)
                            break
                    else:
                        broken.append(f"{shown}: {link}: folder without index.html or README.md")
                        continue
                if not os.path.isfile(target_path):
                    broken.append(f"{shown}: {link}: no such file")
                    continue
            if parts.fragment:
                if not target_path.endswith(".html"):
                    continue  # anchors into Markdown or SVG files are not checked
                anchor = unquote(parts.fragment)
                if anchor not in parse(target_path, cache).ids:
                    broken.append(f"{shown}: {link}: no anchor #{anchor}")
    return len(pages), broken


MARKDOWN_LINK = re.compile(r"\]\(([^()\s]+)\)")


def check_markdown(repo):
    """Relative links of the repository's Markdown front pages: the target must exist."""
    pages = [os.path.join(repo, "README.md"), os.path.join(repo, "CHANGELOG.md")]
    for root, _dirs, files in os.walk(os.path.join(repo, "results")):
        pages += [os.path.join(root, f) for f in files if f == "README.md"]
    broken = []
    for page in pages:
        if not os.path.isfile(page):
            continue
        inside_code = False
        with open(page, encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("```"):
                    inside_code = not inside_code
                if inside_code:
                    continue
                for link in MARKDOWN_LINK.findall(line):
                    parts = urlsplit(link)
                    if parts.scheme or not parts.path:
                        continue
                    target = os.path.normpath(
                        os.path.join(os.path.dirname(page), unquote(parts.path))
                    )
                    if not os.path.exists(target):
                        broken.append(f"{os.path.relpath(page, repo)}: {link}: no such file")
    return len(pages), broken


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    book = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "book")
    result = check(book)
    if result is None:
        return 2
    count, broken = result
    md_count, md_broken = check_markdown(os.path.dirname(here))
    count += md_count
    broken += md_broken
    for line in broken:
        print(line)
    if broken:
        print(f"{len(broken)} broken link(s) in {count} pages")
        return 1
    print(f"links ok: {count} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
