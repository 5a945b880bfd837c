/**
 * The test environment's database: tests create and delete rows, so they run on a database of
 * their own, never on the development one. An in-memory SQLite database always qualifies; any
 * other must be named for tests (`tasks_test`, `sqlite:data/test.db`) and differ from the
 * development `DB_URL`.
 */
import { E_TEST_DB_URL } from "./errors.js";

/** The test environment's database when nothing names one: SQLite in memory, new for each app built. */
export const TEST_DB_URL_DEFAULT = "sqlite::memory:";

/** Whether a database URL is SQLite in memory. */
function inMemory(url: string): boolean {
  return /^sqlite:(\/\/)?:memory:$/.test(url) || url === "sqlite:memory";
}

/** The database's name in a URL: the SQLite file's name, or the server database's. */
function databaseName(url: string): string {
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length).split(/[\\/]/).pop() ?? "";
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\/+/, ""));
  } catch {
    return url;
  }
}

/** A URL compared without its password, trailing slashes or query. */
function sameDatabase(a: string, b: string): boolean {
  const key = (url: string): string => {
    try {
      const parsed = new URL(url);
      parsed.password = "";
      parsed.search = "";
      return `${parsed.protocol}//${parsed.username}@${parsed.hostname.replace(/^localhost$/, "127.0.0.1")}:${parsed.port}${parsed.pathname.replace(/\/+$/, "")}`;
    } catch {
      return url.trim();
    }
  };
  return key(a.trim()) === key(b.trim());
}

/**
 * Refuses a test database that could be the development one: not in memory and not named for
 * tests (its name has no `test`), or the same as a development `DB_URL`.
 */
export function assertTestDatabase(url: string, developmentUrls: readonly string[]): void {
  const trimmed = url.trim();
  if (inMemory(trimmed)) return;
  const masked = trimmed.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:****@");
  if (developmentUrls.some((development) => sameDatabase(trimmed, development)))
    throw new E_TEST_DB_URL(masked, "it is the development database (DB_URL)");
  if (!/test/i.test(databaseName(trimmed)))
    throw new E_TEST_DB_URL(masked, `its name "${databaseName(trimmed)}" does not say it is for tests`);
}
