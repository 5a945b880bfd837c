import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pageUrl, type Page } from "../src/paginate.js";
import { paginationLinks } from "../src/pagination-html.js";

function pageOf(page: number, pages: number, base = "/posts", query: Record<string, unknown> = {}): Page<unknown> {
  const link = (n: number) => pageUrl(base, query, n);
  const around = [];
  for (let n = Math.max(1, page - 2); n <= Math.min(pages, page + 2); n++)
    around.push({ page: n, url: link(n), current: n === page });
  return {
    items: [],
    page,
    perPage: 10,
    total: pages * 10,
    pages,
    hasNext: page < pages,
    hasPrev: page > 1,
    links: {
      first: link(1),
      prev: page > 1 ? link(page - 1) : null,
      next: page < pages ? link(page + 1) : null,
      last: link(pages),
      pages: around,
    },
  };
}

describe("pageUrl", () => {
  test("keeps other parameters, replaces page, keeps the base URL's own query", () => {
    assert.equal(pageUrl("/posts", { q: "a b", page: "9", tags: ["x", "y"] }, 2), "/posts?q=a+b&tags=x&tags=y&page=2");
    assert.equal(pageUrl("/posts?sort=new", {}, 3), "/posts?sort=new&page=3");
    assert.equal(pageUrl("https://example.com/p?x=1", { y: "2" }, 4), "https://example.com/p?x=1&y=2&page=4");
    assert.equal(pageUrl("", {}, 1), "?page=1");
  });
});

describe("paginationLinks", () => {
  test("renders prev, numbered, gap and next links with the current page marked", () => {
    const html = paginationLinks(pageOf(5, 10));
    assert.match(html, /^<nav class="pagination" aria-label="Pagination">/);
    assert.match(html, /<a href="\/posts\?page=4" rel="prev">« Previous<\/a>/);
    assert.match(html, /<a href="\/posts\?page=1">1<\/a> <span class="gap">…<\/span> <a href="\/posts\?page=3">3<\/a>/);
    assert.match(html, /<span aria-current="page">5<\/span>/);
    assert.match(html, /<a href="\/posts\?page=10">10<\/a> <a href="\/posts\?page=6" rel="next">Next »<\/a><\/nav>$/);
  });

  test("escapes URLs and labels", () => {
    const html = paginationLinks(pageOf(1, 2, "/s", { q: '"><script>' }), { next: "<Next>" });
    assert.ok(!html.includes("<script>"));
    assert.ok(html.includes("&#60;Next&#62;"));
  });

  test("is empty when everything fits on one page", () => {
    assert.equal(paginationLinks(pageOf(1, 1)), "");
    assert.equal(paginationLinks(pageOf(1, 0)), "");
  });
});
