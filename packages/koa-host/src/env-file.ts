/**
 * The app folder's `.env` file: read before the config so secrets can live outside the code (and
 * outside git), as the twelve-factor apps the docs describe expect. A variable already in the real
 * environment always wins; the file only fills in what is missing. The test environment reads
 * `.env.test` too and never the development database (see loadEnvFiles).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { E_CONFIG_ENV_FILE } from "./errors.js";

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

/**
 * Parses `.env` text: `NAME=value` lines, `export NAME=value`, `#` comments and blank lines,
 * values in single quotes (as written) or double quotes (`\n`, `\t`, `\"`, `\\` escapes), and
 * unquoted values up to a ` #` comment. Any other line is an error naming its number.
 */
export function parseEnvFile(text: string, file = ".env"): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(#.*)?$/.test(line)) continue;
    const match = LINE.exec(line);
    if (!match) throw new E_CONFIG_ENV_FILE(file, i + 1, "expected NAME=value");
    // Both groups of LINE always take part in a match.
    values[match[1]!] = unquote(match[2]!, file, i + 1);
  }
  return values;
}

function unquote(raw: string, file: string, line: number): string {
  const quote = raw[0];
  if (quote === "'" || quote === '"') {
    const end = raw.lastIndexOf(quote);
    if (end === 0 || !/^\s*(#.*)?$/.test(raw.slice(end + 1)))
      throw new E_CONFIG_ENV_FILE(file, line, `the ${quote} quote is not closed`);
    const inner = raw.slice(1, end);
    if (quote === "'") return inner;
    return inner.replace(/\\([nrt"\\])/g, (_, c: string) => ({ n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" })[c]!);
  }
  const comment = raw.search(/\s#/);
  return (comment === -1 ? raw : raw.slice(0, comment)).trim();
}

/** Reads and parses an env file, or undefined when it does not exist. */
export function readEnvFile(file: string): Record<string, string> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new E_CONFIG_ENV_FILE(file, 0, (error as Error).message);
  }
  return parseEnvFile(text, file);
}

function fillIn(environment: NodeJS.ProcessEnv, values: Readonly<Record<string, string>>, set: string[]): void {
  for (const [name, value] of Object.entries(values)) {
    if (environment[name] !== undefined) continue;
    environment[name] = value;
    set.push(name);
  }
}

/**
 * Reads `<root>/.env` when it exists and copies its variables into `environment` (by default
 * `process.env`) where they are not already set. Returns the names it set.
 */
export function loadEnvFile(root: string, environment: NodeJS.ProcessEnv = process.env): readonly string[] {
  const set: string[] = [];
  fillIn(environment, readEnvFile(join(root, ".env")) ?? {}, set);
  return set;
}

/**
 * The variables the test environment never takes from the development setup (`.env` or the
 * environment), and the ones it reads instead: tests delete rows and must send no real mail.
 */
export const TEST_VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  DB_URL: "TEST_DB_URL",
  MAIL_URL: "TEST_MAIL_URL",
});

/** What {@link loadEnvFiles} found. */
export interface LoadedEnvFiles {
  /**
   * The environment the files were read for: the one given, else `APP_ENV` (the real environment's,
   * else `.env`'s), else `production` when `NODE_ENV` is, else `development`.
   */
  readonly env: string;
  /** The names set in `environment`. */
  readonly set: readonly string[];
  /** The development database URLs the test environment must never use (`DB_URL` of the environment and of `.env`). */
  readonly developmentDbUrls: readonly string[];
}

/**
 * Reads the app folder's env files for one environment. Outside `test` it is {@link loadEnvFile}.
 * In `test`, `.env.test` is read first (its values win over `.env`'s), and the development
 * database and mail server are never taken: `DB_URL` and `MAIL_URL` of `.env` are skipped (the
 * development `DB_URL`s are returned so the test database can be compared with them), and in
 * `.env.test` they become `TEST_DB_URL` and `TEST_MAIL_URL`, what the test environment reads.
 */
export function loadEnvFiles(root: string, environment: NodeJS.ProcessEnv = process.env, env?: string): LoadedEnvFiles {
  const base = readEnvFile(join(root, ".env")) ?? {};
  // As `start` does, an unset APP_ENV is production where NODE_ENV says so: every command agrees.
  const production = (environment["NODE_ENV"] || base["NODE_ENV"]) === "production";
  const name = env ?? (environment["APP_ENV"] || base["APP_ENV"] || (production ? "production" : "development"));
  const set: string[] = [];
  if (name !== "test") {
    fillIn(environment, base, set);
    return { env: name, set, developmentDbUrls: [] };
  }
  const testValues = { ...readEnvFile(join(root, ".env.test")) };
  const baseValues = { ...base };
  for (const [variable, testVariable] of Object.entries(TEST_VARIABLES)) {
    // In .env.test, DB_URL means the test database; in .env, it is the development one: skipped.
    const given = testValues[variable];
    delete testValues[variable];
    if (given !== undefined && testValues[testVariable] === undefined) testValues[testVariable] = given;
    delete baseValues[variable];
  }
  const developmentDbUrl = base["DB_URL"];
  fillIn(environment, testValues, set);
  fillIn(environment, baseValues, set);
  const developmentDbUrls = [environment["DB_URL"], developmentDbUrl].filter(
    (url): url is string => typeof url === "string" && url.trim() !== "",
  );
  return { env: name, set, developmentDbUrls };
}
