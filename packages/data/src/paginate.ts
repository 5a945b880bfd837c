/**
 * Pagination of any knex query: one count over the query as a subquery (correct with joins,
 * grouping and DISTINCT) plus one page of rows, and links that keep the rest of the query string.
 */
import type { Knex } from "knex";

/** Options of {@link paginate}. */
export interface PaginateOptions<Row, Item> {
  /** 1-based page (from `pageParams`). */
  readonly page: number;
  /** Rows per page (from `pageParams`). */
  readonly perPage: number;
  /** The URL links point to: a path (`/posts`) or an absolute URL; its own query string is kept. Default "". */
  readonly baseUrl?: string;
  /** The current query string (`ctx.query`): kept in every link, with `page` replaced. */
  readonly query?: Readonly<Record<string, unknown>>;
  /** How many page links each side of the current one. Default 2. */
  readonly window?: number;
  /** Turns each row into an item (for example `User.hydrate`). */
  readonly map?: (row: Row) => Item;
}

/** A numbered page link. */
export interface PageLink {
  readonly page: number;
  readonly url: string;
  readonly current: boolean;
}

/** One page of results. */
export interface Page<Item> {
  readonly items: Item[];
  readonly page: number;
  readonly perPage: number;
  /** Rows the whole query matches. */
  readonly total: number;
  /** Number of pages (0 when there are no rows). */
  readonly pages: number;
  readonly hasNext: boolean;
  readonly hasPrev: boolean;
  readonly links: {
    readonly first: string;
    readonly prev: string | null;
    readonly next: string | null;
    readonly last: string;
    /** Links around the current page. */
    readonly pages: readonly PageLink[];
  };
}

/** Builds the URL of page `page`, keeping every other query parameter. */
export function pageUrl(baseUrl: string, query: Readonly<Record<string, unknown>>, page: number): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl);
  const url = new URL(baseUrl, "http://relative.invalid");
  for (const [key, value] of Object.entries(query)) {
    if (key === "page" || value === undefined || value === null) continue;
    url.searchParams.delete(key);
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
  url.searchParams.set("page", String(page));
  if (absolute) return url.href;
  return `${baseUrl.split(/[?#]/)[0]}?${url.searchParams.toString()}`;
}

function whole(value: number, fallback: number): number {
  return Number.isFinite(value) && value >= 1 ? Math.trunc(value) : fallback;
}

/**
 * Runs `query` for one page and counts all its rows. Give `page`/`perPage` from `pageParams`;
 * any ORDER BY of the query is kept for the items and dropped from the count.
 */
export async function paginate<Row = Record<string, unknown>, Item = Row>(
  query: Knex.QueryBuilder,
  options: PaginateOptions<Row, Item>,
): Promise<Page<Item>> {
  const page = whole(options.page, 1);
  const perPage = whole(options.perPage, 20);
  const counted = (await query.client
    .queryBuilder()
    .count({ total: "*" })
    .from(query.clone().clearOrder().as("paginate_count"))) as { total: number | string }[];
  const total = Number(counted[0]?.total ?? 0);
  const rows = (await query
    .clone()
    .limit(perPage)
    .offset((page - 1) * perPage)) as Row[];
  const items = options.map ? rows.map((row) => options.map!(row)) : (rows as unknown as Item[]);
  const pages = Math.ceil(total / perPage);
  const lastPage = Math.max(pages, 1);
  const baseUrl = options.baseUrl ?? "";
  const query_ = options.query ?? {};
  const link = (n: number) => pageUrl(baseUrl, query_, n);
  const window = Math.max(0, Math.trunc(options.window ?? 2));
  const around: PageLink[] = [];
  for (let n = Math.max(1, page - window); n <= Math.min(pages, page + window); n++) {
    around.push({ page: n, url: link(n), current: n === page });
  }
  return {
    items,
    page,
    perPage,
    total,
    pages,
    hasNext: page < pages,
    hasPrev: page > 1,
    links: {
      first: link(1),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < pages ? link(page + 1) : null,
      last: link(lastPage),
      pages: around,
    },
  };
}
