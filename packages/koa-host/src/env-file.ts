/**
 * The app folder's `.env` file: read before the config so secrets can live outside the code (and
 * outside git), as the twelve-factor apps the docs describe expect. A variable already in the real
 * environment always wins; the file only fills in what is missing.
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
    const [, name, raw] = match as unknown as [string, string, string];
    values[name] = unquote(raw, file, i + 1);
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

/**
 * Reads `<root>/.env` when it exists and copies its variables into `environment` (by default
 * `process.env`) where they are not already set. Returns the names it set.
 */
export function loadEnvFile(root: string, environment: NodeJS.ProcessEnv = process.env): readonly string[] {
  const file = join(root, ".env");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new E_CONFIG_ENV_FILE(file, 0, (error as Error).message);
  }
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnvFile(text, file))) {
    if (environment[name] !== undefined) continue;
    environment[name] = value;
    set.push(name);
  }
  return set;
}
