/**
 * Reads the one database URL an app is configured with (`DB_URL` / `dbUrl`) into what knex needs.
 * Kept apart from the connection so the CLI, the plugin and the tests parse URLs the same way.
 */
import { isAbsolute, resolve } from "node:path";
import { E_BAD_DB_URL } from "./errors.js";

/** The database an app uses when it configures none: a SQLite file under the app root. */
export const DEFAULT_DB_URL = "sqlite:data/app.db";

/** The dialects this package connects to. */
export type Dialect = "sqlite" | "postgres" | "mysql";

/** A parsed database URL. */
export type DbTarget =
  | { readonly dialect: "sqlite"; readonly filename: string; readonly masked: string }
  | {
      readonly dialect: "postgres";
      readonly connectionString: string;
      readonly masked: string;
    }
  | {
      readonly dialect: "mysql";
      readonly host: string;
      readonly port: number;
      readonly user: string;
      readonly password: string;
      readonly database: string;
      readonly masked: string;
    };

/** The URL with its password replaced by `****`, safe for logs and error messages. */
export function maskDbUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)([^@/?#]*)@/i, (_, head: string) => `${head}****@`);
}

/**
 * Parses `sqlite:<path>` (relative to `root`, or `sqlite::memory:`), `postgres://` /
 * `postgresql://` and `mysql://` / `mariadb://` URLs.
 */
export function parseDbUrl(url: string, root: string = process.cwd()): DbTarget {
  const masked = maskDbUrl(url);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "sqlite" || scheme === "sqlite3") {
    let path = url.slice(scheme.length + 1);
    if (path.startsWith("//")) path = path.slice(2);
    if (path === "") throw new E_BAD_DB_URL(masked, "it names no SQLite file");
    if (path === ":memory:") return { dialect: "sqlite", filename: ":memory:", masked };
    return { dialect: "sqlite", filename: isAbsolute(path) ? path : resolve(root, path), masked };
  }
  if (scheme === "postgres" || scheme === "postgresql") {
    const parsed = parseUrl(url, masked);
    if (parsed.pathname.length <= 1) throw new E_BAD_DB_URL(masked, "it names no database (add /dbname)");
    return { dialect: "postgres", connectionString: url, masked };
  }
  if (scheme === "mysql" || scheme === "mariadb") {
    const parsed = parseUrl(url, masked);
    const database = decodeURIComponent(parsed.pathname.slice(1));
    if (database === "") throw new E_BAD_DB_URL(masked, "it names no database (add /dbname)");
    return {
      dialect: "mysql",
      host: parsed.hostname || "127.0.0.1",
      port: parsed.port ? Number(parsed.port) : 3306,
      user: decodeURIComponent(parsed.username || "root"),
      password: decodeURIComponent(parsed.password),
      database,
      masked,
    };
  }
  throw new E_BAD_DB_URL(masked, scheme ? `the scheme "${scheme}:" is not supported` : "it has no scheme");
}

function parseUrl(url: string, masked: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new E_BAD_DB_URL(masked, "it is not a valid URL");
  }
}
