/**
 * The pagination template helper: a `<nav>` of page links for a {@link Page}, the same markup in
 * both frameworks' templates. It returns HTML (every URL and label escaped here), so a template
 * prints it unescaped: Nunjucks `{{ pagination_links(page) | safe }}`, Pug `!= pagination_links(page)`.
 */
import { escapeHtml } from "@fwkit/koa-host/plugin";
import type { Page } from "./paginate.js";

/** Labels of the previous/next links. */
export interface PaginationLabels {
  readonly prev?: string;
  readonly next?: string;
}

/**
 * `<nav class="pagination">` with previous, numbered and next links; the current page is a
 * `<span aria-current="page">`. Empty when everything fits on one page.
 */
export function paginationLinks(
  page: Pick<Page<unknown>, "pages" | "page" | "links">,
  labels: PaginationLabels = {},
): string {
  if (!page || page.pages <= 1) return "";
  const prev = labels.prev ?? "« Previous";
  const next = labels.next ?? "Next »";
  const parts: string[] = [];
  if (page.links.prev) parts.push(`<a href="${escapeHtml(page.links.prev)}" rel="prev">${escapeHtml(prev)}</a>`);
  const first = page.links.pages[0];
  if (first && first.page > 1) {
    parts.push(`<a href="${escapeHtml(page.links.first)}">1</a>`);
    if (first.page > 2) parts.push(`<span class="gap">…</span>`);
  }
  for (const link of page.links.pages) {
    parts.push(
      link.current
        ? `<span aria-current="page">${link.page}</span>`
        : `<a href="${escapeHtml(link.url)}">${link.page}</a>`,
    );
  }
  const last = page.links.pages[page.links.pages.length - 1];
  if (last && last.page < page.pages) {
    if (last.page < page.pages - 1) parts.push(`<span class="gap">…</span>`);
    parts.push(`<a href="${escapeHtml(page.links.last)}">${page.pages}</a>`);
  }
  if (page.links.next) parts.push(`<a href="${escapeHtml(page.links.next)}" rel="next">${escapeHtml(next)}</a>`);
  return `<nav class="pagination" aria-label="Pagination">${parts.join(" ")}</nav>`;
}
