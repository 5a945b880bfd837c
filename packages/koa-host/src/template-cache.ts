/**
 * Compiled templates kept on disk from one start to the next, as Node's compile cache keeps the V8
 * code of modules. Both frameworks use it outside development: the first render of a template
 * compiles it (fw-b loads Pug's compiler, about 210 modules with Babel's types, and compiles for
 * about 130 ms; fw-a's Nunjucks compiles a page and its layout in about 12 ms) and writes the
 * compiled source; the next start of the same app, or the next worker of a cluster, renders from
 * that source and compiles nothing.
 *
 * An entry is found by the SHA-256 of the template's source, the key the framework gives it (its
 * path and what else shapes its compilation) and the cache's salt (the versions of the framework,
 * its template engine and what the engine's output embeds). It is used only while every file its
 * compilation looked at is as it was: each layout and include it read has the same SHA-256, and each
 * file it looked for and did not find (an app's override of a shipped layout) is still absent. An
 * edited, added or redeployed template compiles again.
 *
 * The folder is the framework's `node_modules/.cache/<name>`, beside Node's compile cache: owned by
 * whoever installed the framework, not a shared temp folder other users could write code into. A
 * folder that cannot be written (a read-only install) only means no cache; an entry is written to a
 * temporary file and renamed, so a worker never reads half of one. The folder keeps at most 2,000
 * entries (a release's templates sit at new paths, so each release adds its own): past that, the
 * oldest written go.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** What a compilation looked at besides the template: each file read (its path) and each path looked for and absent. */
export interface TemplateInputs {
  readonly read: readonly string[];
  readonly absent: readonly string[];
}

/** An entry as written: the compiled source and what it was compiled from. */
interface Entry {
  readonly body: string;
  readonly read: ReadonlyArray<readonly [path: string, sha256: string]>;
  readonly absent: readonly string[];
}

const NOTHING_ELSE: TemplateInputs = { read: [], absent: [] };

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** The compiled templates of one framework's apps; `salt` is everything besides the files that shapes the output. */
export class TemplateCache {
  readonly #dir: string;
  readonly #salt: string;
  readonly #limit: number;

  /** `limit`: the entries kept; past it, the oldest written go (each release's paths make new ones). */
  constructor(dir: string, salt: string, limit = 2000) {
    this.#dir = dir;
    this.#salt = salt;
    this.#limit = limit;
  }

  /** The folder the entries are kept in. */
  get folder(): string {
    return this.#dir;
  }

  #file(key: string, source: string): string {
    return join(this.#dir, `${sha256(`${this.#salt}\0${key}\0${source}`)}.json`);
  }

  /**
   * The compiled source stored for `source` by an earlier start, while its inputs are unchanged;
   * `key` names the template where it compiles (its path, and whatever else shapes its output).
   */
  load(key: string, source: string): string | undefined {
    let entry: Entry;
    try {
      entry = JSON.parse(readFileSync(this.#file(key, source), "utf8")) as Entry;
    } catch {
      return undefined;
    }
    if (typeof entry?.body !== "string" || !Array.isArray(entry.read) || !Array.isArray(entry.absent)) return undefined;
    try {
      for (const [file, hash] of entry.read) if (sha256(readFileSync(file)) !== hash) return undefined;
    } catch {
      return undefined;
    }
    if (entry.absent.some((file) => existsSync(file))) return undefined;
    return entry.body;
  }

  /** Keeps a compiled source for the next start; a failure to write is no failure of the render. */
  store(key: string, source: string, body: string, inputs: TemplateInputs = NOTHING_ELSE): void {
    try {
      const entry: Entry = {
        body,
        read: inputs.read.map((file) => [file, sha256(readFileSync(file))] as const),
        absent: [...inputs.absent],
      };
      mkdirSync(this.#dir, { recursive: true });
      const target = this.#file(key, source);
      const partial = `${target}.${randomBytes(6).toString("hex")}.tmp`;
      writeFileSync(partial, JSON.stringify(entry));
      renameSync(partial, target);
      this.#prune();
    } catch {
      // No cache: the next start compiles again.
    }
  }

  /** Past the limit, removes the entries written first, down to nine tenths of it. */
  #prune(): void {
    const names = readdirSync(this.#dir).filter((name) => name.endsWith(".json"));
    if (names.length <= this.#limit) return;
    const byAge = names
      .map((name) => ({ path: join(this.#dir, name), written: statSync(join(this.#dir, name)).mtimeMs }))
      .sort((a, b) => a.written - b.written);
    for (const { path } of byAge.slice(0, names.length - Math.floor(this.#limit * 0.9))) rmSync(path, { force: true });
  }
}

/**
 * The template cache of a framework installed at `packageRoot` for an app running in `env`: in
 * production only (development re-reads templates on every render; a test or staging run keeps no
 * code on disk), in the framework's `node_modules/.cache/<name>`, salted with its own version and
 * those of `packages` (its template engine and anything the compiled output embeds), each resolved
 * from the framework's folder. None when a version cannot be read: templates then compile in every
 * start, as without a cache.
 */
export function frameworkTemplateCache(
  packageRoot: string,
  name: string,
  packages: readonly string[],
  env: string,
): TemplateCache | undefined {
  if (env !== "production") return undefined;
  try {
    const require = createRequire(join(packageRoot, "package.json"));
    const version = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version;
    const versions = [join(packageRoot, "package.json"), ...packages.map((p) => require.resolve(`${p}/package.json`))];
    return new TemplateCache(join(packageRoot, "node_modules", ".cache", name), versions.map(version).join("\0"));
  } catch {
    return undefined;
  }
}
