import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** What a scaffold did: files written and files left alone because they existed. */
export interface ScaffoldResult {
  readonly written: readonly string[];
  readonly skipped: readonly string[];
}

/**
 * Writes files (relative path -> content; a path ending in `/` is a folder) under `dir`, never
 * overwriting an existing file.
 */
export function writeScaffold(dir: string, files: Readonly<Record<string, string>>): ScaffoldResult {
  const written: string[] = [];
  const skipped: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    if (path.endsWith("/")) {
      if (existsSync(target)) continue;
      mkdirSync(target, { recursive: true });
      written.push(path);
      continue;
    }
    if (existsSync(target)) {
      skipped.push(path);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    written.push(path);
  }
  return { written, skipped };
}

/** Prints a scaffold result the way the CLIs do. */
export function describeScaffold(result: ScaffoldResult, print: (line: string) => void = console.log): void {
  for (const path of result.written) print(`  create  ${path}`);
  for (const path of result.skipped) print(`  skip    ${path} (exists)`);
}

/**
 * Links `node_modules/<name>` of a new app to the copy the framework at `frameworkDir` resolves, for
 * each name, so the scaffold's dependencies (the validator its docs use) resolve with no install
 * step. A name already present in the app, or that the framework cannot resolve, is left alone
 * (`npm install` then fetches it from the app's package.json).
 */
export function linkScaffoldDependencies(appDir: string, frameworkDir: string, names: readonly string[]): void {
  for (const name of names) {
    const link = join(appDir, "node_modules", ...name.split("/"));
    if (existsSync(link)) continue;
    const found = packageDirFrom(frameworkDir, name);
    if (found === undefined) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(found, link, "dir");
  }
}

/**
 * The version range a framework declares for a package (its dependencies, then devDependencies),
 * so a scaffold asks for the version the framework is tested with.
 */
function declaredVersion(frameworkDir: string, name: string): string | undefined {
  const manifest = JSON.parse(readFileSync(join(frameworkDir, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  return manifest["dependencies"]?.[name] ?? manifest["devDependencies"]?.[name] ?? manifest["peerDependencies"]?.[name];
}

/** Node's lookup of `node_modules/<name>` from `dir` upwards, as the real folder. */
function packageDirFrom(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(current) === current) return undefined;
  }
}

/**
 * Packages every new app depends on beside its framework: the validator the docs' examples import
 * (`import { z } from "zod"`), so a pasted example resolves in a fresh app, and the drivers its
 * default configuration uses: better-sqlite3 for `dbUrl: "sqlite:..."` and bcrypt, the default
 * password hasher. Every other driver (pg, mysql2, ioredis, nodemailer, the cloud SDKs, argon2)
 * is an optional peer dependency of the battery that loads it: an app installs the ones its
 * configuration names, and a missing one is an error naming its `npm install` command.
 */
export const SCAFFOLD_DEPENDENCIES: readonly string[] = Object.freeze(["zod", "better-sqlite3", "bcrypt"]);

/**
 * Development tools every new app lists as devDependencies: tsx (the TypeScript loader of the dev
 * server and CLI), esbuild (the `build` command), chokidar (the dev server's file watcher),
 * pino-pretty (readable development logs), swagger-ui-dist (the OpenAPI page at `/docs`, off in
 * production by default) and light-my-request (the test client of fw-a/testing and fw-b/testing,
 * which the app's own `npm test` uses); and the type packages the app's TypeScript needs to check against the
 * frameworks' types (@types/node, @types/koa for `ctx`, @types/yargs for user commands), which are
 * no runtime dependency of any published package (NestJS's starter lists @types/express the same
 * way). A production install (`npm install --omit=dev` of a built app) carries none of them.
 */
export const SCAFFOLD_DEV_DEPENDENCIES: readonly string[] = Object.freeze(["tsx", "esbuild", "chokidar", "pino-pretty", "swagger-ui-dist", "light-my-request", "@types/node", "@types/koa", "@types/yargs"]);

/** The `dependencies` a new app lists beside its framework, at the framework's declared versions. */
export function scaffoldDependencies(frameworkDir: string): Record<string, string> {
  return declaredVersions(frameworkDir, SCAFFOLD_DEPENDENCIES);
}

/** The `devDependencies` of a new app ({@link SCAFFOLD_DEV_DEPENDENCIES}), at the framework's declared versions. */
export function scaffoldDevDependencies(frameworkDir: string): Record<string, string> {
  return declaredVersions(frameworkDir, SCAFFOLD_DEV_DEPENDENCIES);
}

function declaredVersions(frameworkDir: string, names: readonly string[]): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of names) versions[name] = declaredVersion(frameworkDir, name) ?? "*";
  return versions;
}
