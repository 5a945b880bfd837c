/**
 * How a new app depends on its framework, and what its package.json becomes in a folder that has
 * one. From a checkout of the frameworks' repository an app links to it (`"fw-a": "file:..."`), so
 * every command runs before any install; from an installed framework (the registry, npx's cache)
 * it asks for the framework's version (`"fw-a": "^0.1.0"`), as `npm create` tools do: a `file:`
 * path into another project's node_modules or npx's cache would tie the app to that folder.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { E_INIT_PACKAGE_JSON } from "./errors.js";

/** Whether `frameworkDir` is a package of the frameworks' own repository (a pnpm workspace, not an install). */
export function frameworkInCheckout(frameworkDir: string): boolean {
  let real: string;
  try {
    real = realpathSync(frameworkDir);
  } catch {
    return false;
  }
  if (real.split(sep).includes("node_modules")) return false;
  for (let current = real; ; current = dirname(current)) {
    if (existsSync(join(current, "pnpm-workspace.yaml"))) return true;
    if (dirname(current) === current) return false;
  }
}

/** The new app's dependency on the framework: its registry version (`^0.1.0`), or a `file:` link to the checkout. */
export function frameworkDependency(frameworkDir: string, registry: boolean): string {
  if (!registry) return `file:${frameworkDir.replace(/[\\/]+$/, "")}`;
  const { version } = JSON.parse(readFileSync(join(frameworkDir, "package.json"), "utf8")) as { version: string };
  return `^${version}`;
}

type Manifest = Record<string, unknown>;

/** `npm init`'s placeholder test script, which a new app's own `test` replaces. */
const NPM_INIT_TEST = /^echo "Error: no test specified" && exit 1$/;

/** Object fields merged entry by entry: the app's entries stay, the scaffold's missing ones are added. */
const MERGED = ["scripts", "dependencies", "devDependencies", "engines", "overrides", "allowScripts"] as const;

/**
 * Merges a new app's package.json into the one already in the folder (`npm init -y && npm install
 * fw-a` first): scripts, dependencies, devDependencies, engines and overrides the folder lacks are
 * added (an existing entry is kept, except npm init's placeholder test script), and `type` becomes
 * `module` (the app is ES modules). Returns the merged text and what changed, one phrase each;
 * `E_INIT_PACKAGE_JSON` for a file that is not a JSON object, or whose `type` is set to
 * anything but module or commonjs.
 */
export function mergePackageJson(
  file: string,
  existingText: string,
  scaffoldText: string,
): { text: string; changes: string[] } {
  let existing: unknown;
  try {
    existing = JSON.parse(existingText);
  } catch (error) {
    throw new E_INIT_PACKAGE_JSON(file, `it is not valid JSON (${(error as Error).message})`);
  }
  if (typeof existing !== "object" || existing === null || Array.isArray(existing))
    throw new E_INIT_PACKAGE_JSON(file, "it is not a JSON object");
  const merged: Manifest = { ...(existing as Manifest) };
  const scaffold = JSON.parse(scaffoldText) as Manifest;
  const changes: string[] = [];
  if (merged["type"] !== "module") {
    if (merged["type"] !== undefined && merged["type"] !== "commonjs")
      throw new E_INIT_PACKAGE_JSON(file, `its "type" is ${JSON.stringify(merged["type"])}, not "module"`);
    merged["type"] = "module";
    changes.push('type: "module"');
  }
  for (const field of MERGED) {
    const theirs = scaffold[field] as Record<string, unknown> | undefined;
    if (theirs === undefined) continue;
    const ours = merged[field];
    if (ours !== undefined && (typeof ours !== "object" || ours === null || Array.isArray(ours)))
      throw new E_INIT_PACKAGE_JSON(file, `its "${field}" is not an object`);
    const entries: Record<string, unknown> = { ...((ours as Record<string, unknown> | undefined) ?? {}) };
    const added: string[] = [];
    for (const [name, value] of Object.entries(theirs)) {
      const placeholder = field === "scripts" && name === "test" && NPM_INIT_TEST.test(String(entries[name] ?? ""));
      if (name in entries && !placeholder) continue;
      entries[name] = value;
      added.push(name);
    }
    if (added.length === 0) continue;
    merged[field] = entries;
    changes.push(`${field}: ${added.join(", ")}`);
  }
  for (const [name, value] of Object.entries(scaffold))
    if (!(name in merged)) {
      merged[name] = value;
      changes.push(name);
    }
  return { text: `${JSON.stringify(merged, null, 2)}\n`, changes };
}
