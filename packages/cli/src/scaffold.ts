import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { linkPackage, linkScaffoldDependencies, packageDirFrom, type LinkResult } from "./scaffold-links.js";

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

/**
 * A scaffold's migrations are stamped with the time it runs (`migrations/<UTC stamp>_<name>.ts`).
 * Run again in an app that has one of the same name, the existing file name is kept, so the file
 * is skipped like any other instead of being added a second time.
 */
export function keepExistingMigrations(dir: string, files: Readonly<Record<string, string>>): Record<string, string> {
  const folder = join(dir, "migrations");
  const existing = existsSync(folder) ? readdirSync(folder) : [];
  const kept: Record<string, string> = {};
  for (const [path, content] of Object.entries(files)) {
    const name = /^migrations\/\d{14}_(.+)$/.exec(path)?.[1];
    const same =
      name === undefined ? undefined : existing.find((file) => /^\d{14}_/.test(file) && file.slice(15) === name);
    kept[same === undefined ? path : `migrations/${same}`] = content;
  }
  return kept;
}

/** Prints a scaffold result the way the CLIs do (`updated`: files merged into, with what changed). */
export function describeScaffold(
  result: ScaffoldResult & { readonly updated?: readonly string[] },
  print: (line: string) => void = console.log,
): void {
  for (const path of result.written) print(`  create  ${path}`);
  for (const path of result.updated ?? []) print(`  update  ${path}`);
  for (const path of result.skipped) print(`  skip    ${path} (exists)`);
}

/**
 * The Node.js versions a new app declares (`engines`), the frameworks' own: the LTS lines 22
 * (from 22.12, which sanitize-html needs) and 24, the two lines CI runs.
 */
export const NODE_ENGINES = "^22.12.0 || >=24.0.0";

/** The Node.js line a new app's `.nvmrc` and the generated Dockerfile name: 24, the current LTS. */
export const NODE_LTS = "24";

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
 * The dependencies of a new app whose install step must run (npm 11.16 and later list any other as
 * "not yet covered by allowScripts", and npm 12 skips unlisted ones): better-sqlite3 and bcrypt
 * build or fetch their native add-on, esbuild fetches its binary. One is refused: @scarf/scarf
 * (a dependency of swagger-ui-dist) only reports the install to its publisher, and unlisted it made
 * every new app's install warn. Written to the app's package.json `allowScripts`; an app that adds
 * a native driver (argon2 is prebuilt and needs none) adds it there, or runs
 * `npm install-scripts approve <name>`.
 */
export const SCAFFOLD_ALLOW_SCRIPTS: Readonly<Record<string, boolean>> = Object.freeze({
  "better-sqlite3": true,
  bcrypt: true,
  esbuild: true,
  "@scarf/scarf": false,
});

/**
 * Development tools every new app lists as devDependencies: tsx (the TypeScript loader of the dev
 * server and CLI), esbuild (the `build` command), chokidar (the dev server's file watcher),
 * pino-pretty (readable development logs), swagger-ui-dist (the OpenAPI page at `/docs`, off in
 * production by default) and light-my-request (the test client of fw-a/testing and fw-b/testing,
 * which the app's own `npm test` uses), @faker-js/faker (the model factories of seeds and tests);
 * and the type packages the app's TypeScript needs to check against the
 * frameworks' types (@types/node, @types/koa for `ctx`, @types/yargs for user commands), which are
 * no runtime dependency of any published package (NestJS's starter lists @types/express the same
 * way), and TypeScript itself (`npx tsc` type-checks the app; listed as `typescript-dev`, see {@link SCAFFOLD_DEV_ALIASES}). A production install
 * (`npm install --omit=dev` of a built app) carries none of them.
 */
export const SCAFFOLD_DEV_DEPENDENCIES: readonly string[] = Object.freeze([
  "tsx",
  "esbuild",
  "chokidar",
  "pino-pretty",
  "swagger-ui-dist",
  "light-my-request",
  "@faker-js/faker",
  "typescript",
  "@types/node",
  "@types/koa",
  "@types/yargs",
]);

/** The `dependencies` a new app lists beside its framework, at the framework's declared versions. */
export function scaffoldDependencies(frameworkDir: string): Record<string, string> {
  return declaredVersions(frameworkDir, SCAFFOLD_DEPENDENCIES);
}

/**
 * Development tools a new app lists under another name (an npm alias, `"typescript-dev":
 * "npm:typescript@~5.9.3"`). i18next, a production dependency, declares TypeScript as an optional
 * peer; npm keeps any package a production package names as a peer in `npm install --omit=dev`,
 * even one the app lists only as a devDependency, so a `typescript` devDependency put 23 MB of
 * compiler in every production install. Under another name the peer finds nothing and npm installs
 * none in production, while `tsc` (TypeScript's command) is still in `node_modules/.bin`. A tool
 * that imports `typescript` by name (typescript-eslint) needs `npm install -D typescript`.
 */
export const SCAFFOLD_DEV_ALIASES: Readonly<Record<string, string>> = Object.freeze({ typescript: "typescript-dev" });

/** The `devDependencies` of a new app ({@link SCAFFOLD_DEV_DEPENDENCIES}), at the framework's declared versions. */
export function scaffoldDevDependencies(frameworkDir: string): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const [name, range] of Object.entries(declaredVersions(frameworkDir, SCAFFOLD_DEV_DEPENDENCIES))) {
    const alias = SCAFFOLD_DEV_ALIASES[name];
    if (alias === undefined) versions[name] = range;
    else versions[alias] = `npm:${name}@${range}`;
  }
  return versions;
}

/**
 * The TypeScript the frameworks are built and tested with (the repository's own devDependency; a
 * repository test keeps the two equal). No published package declares TypeScript, so without this
 * pin a scaffold made outside the repository would ask for any version (`*`), and npm would install
 * whatever major is newest.
 */
export const SCAFFOLD_TYPESCRIPT = "~5.9.3";

function declaredVersions(frameworkDir: string, names: readonly string[]): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of names)
    versions[name] =
      declaredVersion(frameworkDir, name) ??
      (name === "typescript" ? SCAFFOLD_TYPESCRIPT : undefined) ??
      resolvedVersion(frameworkDir, name) ??
      "*";
  return versions;
}

/**
 * The version range a framework declares for a package (its dependencies, then devDependencies),
 * so a scaffold asks for the version the framework is tested with.
 */
function declaredVersion(frameworkDir: string, name: string): string | undefined {
  const manifest = JSON.parse(readFileSync(join(frameworkDir, "package.json"), "utf8")) as Record<
    string,
    Record<string, string> | undefined
  >;
  return (
    manifest["dependencies"]?.[name] ?? manifest["devDependencies"]?.[name] ?? manifest["peerDependencies"]?.[name]
  );
}

/** `~x.y.z` of the copy the framework resolves (the workspace's TypeScript), for a tool it does not declare. */
function resolvedVersion(frameworkDir: string, name: string): string | undefined {
  const dir = packageDirFrom(frameworkDir, name);
  if (dir === undefined) return undefined;
  return `~${(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version}`;
}

/**
 * Links a new app to its framework (`node_modules/<framework>` and its `node_modules/.bin` command,
 * as npm links the scaffold's `file:` dependency) and to the framework's copies of the scaffold's
 * dependencies and development tools, so every command the scaffold names runs before any install.
 * Packages with a native install step are left for the app's own `npm install` (see scaffold-links.ts).
 */
export function linkNewApp(appDir: string, framework: { readonly name: string; readonly dir: string }): LinkResult {
  linkPackage(appDir, framework.name, framework.dir);
  return linkScaffoldDependencies(
    appDir,
    framework.dir,
    [...SCAFFOLD_DEPENDENCIES, ...SCAFFOLD_DEV_DEPENDENCIES],
    SCAFFOLD_DEV_ALIASES,
  );
}
