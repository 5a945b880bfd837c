import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { E_DEPLOY_VENDOR } from "../../errors.js";
import {
  fileDigest,
  folderDigest,
  type PackCache,
  type PackedEntry,
  readPackCache,
  writePackCache,
} from "./pack-cache.js";
import { packageTarball, type TarballEntry } from "./tarball.js";

/** The folder of the image's package.json, lock file and packed packages, inside the app folder. */
export const DOCKER_DIR = "deploy/docker";
/** Where the packages the app reaches by a path are packed, as `npm pack` names them. */
export const VENDOR_DIR = `${DOCKER_DIR}/vendor`;

type Specs = Record<string, string>;
interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Specs;
  devDependencies?: Specs;
  optionalDependencies?: Specs;
  peerDependencies?: Specs;
  overrides?: Record<string, unknown>;
  exports?: unknown;
  main?: string;
  bin?: string | Specs;
  [key: string]: unknown;
}

const APP_FIELDS = ["dependencies", "devDependencies", "optionalDependencies"] as const;
// What npm installs of a dependency (its devDependencies never).
const INSTALLED_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"] as const;
const ALL_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;
// Specs naming a folder on this machine (or a workspace sibling): nothing a registry or a build context can serve.
const BY_PATH = /^(file|link|portal|workspace):/;

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
const inside = (dir: string, path: string) => path === dir || path.startsWith(`${dir}${sep}`);

/** A package the image needs packed: its folder (or a tarball file) and manifest. */
interface Vendored {
  readonly name: string;
  readonly source: string;
  readonly manifest: Manifest;
  file: string;
}

/** Node's lookup of `node_modules/<name>` from `dir` upwards (a workspace link included), as the real folder. */
function packageDirFrom(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(current) === current) return undefined;
  }
}

/** The folder (or tarball) a path spec names, seen from `fromDir`. */
function locate(fromDir: string, name: string, spec: string): string {
  const found = spec.startsWith("workspace:")
    ? packageDirFrom(fromDir, name)
    : resolve(fromDir, spec.replace(/^[a-z]+:(\/\/(?=\/))?/, ""));
  if (found === undefined || !existsSync(found)) {
    throw new E_DEPLOY_VENDOR(
      name,
      `"${spec}" (from ${fromDir}) names no folder on this machine; install the app's dependencies first (npm install), then run the deploy command again`,
    );
  }
  return found;
}

/** The packages reached by a path from the app, and from those, everything they reach by a path. */
function collect(root: string, app: Manifest): Map<string, Vendored> {
  const found = new Map<string, Vendored>();
  const visit = (name: string, source: string) => {
    if (found.has(name)) return;
    const isTarball = statSync(source).isFile();
    const manifest: Manifest = isTarball ? { name } : readManifest(source);
    found.set(name, { name, source, manifest, file: "" });
    if (isTarball) return;
    for (const field of INSTALLED_FIELDS) {
      for (const [dependency, spec] of Object.entries(manifest[field] ?? {}))
        if (BY_PATH.test(spec)) visit(dependency, locate(source, dependency, spec));
    }
  };
  for (const field of APP_FIELDS) {
    for (const [name, spec] of Object.entries(app[field] ?? {})) {
      if (!BY_PATH.test(spec)) continue;
      const source = locate(root, name, spec);
      // A folder inside the app is part of the build context already.
      if (inside(root, source)) continue;
      visit(name, source);
    }
  }
  return found;
}

/** `workspace:*`, `workspace:^`, `workspace:~` and `workspace:<range>` as pnpm publishes them. */
function publishedRange(spec: string, version: string): string {
  const range = spec.slice("workspace:".length);
  if (range === "*" || range === "") return version;
  if (range === "^" || range === "~") return `${range}${version}`;
  return range;
}

/** The manifest as it is packed: every path or workspace spec replaced by the version it names. */
function publishedManifest(item: Vendored, all: ReadonlyMap<string, Vendored>): Manifest {
  const manifest: Manifest = structuredClone(item.manifest);
  for (const field of ALL_FIELDS) {
    const specs = manifest[field];
    if (!specs) continue;
    for (const [name, spec] of Object.entries(specs)) {
      if (!BY_PATH.test(spec)) continue;
      const version = all.get(name)?.manifest.version;
      // A development tool of the package reached by a path: npm never installs it for a dependency.
      if (version === undefined) delete specs[name];
      else specs[name] = spec.startsWith("workspace:") ? publishedRange(spec, version) : version;
    }
  }
  return manifest;
}

function npm(args: readonly string[], cwd: string, what: string): string {
  // On Windows npm is a .cmd script, which only a shell runs (the arguments here are fixed words).
  const result = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    shell: process.platform === "win32",
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  if (result.error)
    throw new E_DEPLOY_VENDOR(
      what,
      `npm could not be run (${result.error.message}); the deploy command needs npm on the PATH`,
    );
  if (result.status !== 0)
    throw new E_DEPLOY_VENDOR(
      what,
      `npm ${args.join(" ")} failed in ${cwd}:\n${`${result.stdout}\n${result.stderr}`.trim().slice(-2000)}`,
    );
  return result.stdout;
}

/** The files a package's entry points need: its main export, `main` and executables. */
function entryFiles(manifest: Manifest): string[] {
  const pick = (value: unknown): string | undefined => {
    if (typeof value === "string") return value;
    if (value === null || typeof value !== "object") return undefined;
    const conditions = value as Record<string, unknown>;
    for (const key of [".", "import", "default", "require", "node"])
      if (key in conditions) return pick(conditions[key]);
    return undefined;
  };
  const bins = typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {});
  return [pick(manifest.exports), manifest.main, ...bins]
    .filter((file): file is string => typeof file === "string")
    .map((file) => file.replace(/^\.\//, ""));
}

/**
 * Packs one folder as `npm pack` would (its file list, its tarball name), with the published
 * manifest; reuses the tarball of an earlier run when the folder and manifest are unchanged (`cache`).
 */
function pack(
  item: Vendored,
  all: ReadonlyMap<string, Vendored>,
  vendorDir: string,
  cache: PackCache,
  packed: Record<string, PackedEntry>,
): string {
  const what = `${item.name} (${item.source})`;
  if (statSync(item.source).isFile()) {
    copyFileSync(item.source, join(vendorDir, basename(item.source)));
    return basename(item.source);
  }
  const manifest = `${JSON.stringify(publishedManifest(item, all), null, 2)}\n`;
  const key = folderDigest(item.source, manifest);
  const earlier = cache.packages[item.name];
  if (earlier?.key === key && fileDigest(join(vendorDir, earlier.file)) === earlier.sha256) {
    packed[item.name] = earlier;
    return earlier.file;
  }
  const [listing] = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], item.source, what)) as Array<{
    filename: string;
    files: Array<{ path: string; mode: number }>;
  }>;
  if (!listing) throw new E_DEPLOY_VENDOR(what, "npm pack listed no files");
  const paths = new Set(listing.files.map((file) => file.path));
  for (const entry of entryFiles(item.manifest)) {
    if (!paths.has(entry))
      throw new E_DEPLOY_VENDOR(
        what,
        `its package has no ${entry}: build it first (npm run build in ${item.source}), then run the deploy command again`,
      );
  }
  const entries: TarballEntry[] = listing.files.map((file) => ({
    path: file.path,
    mode: file.mode,
    content: file.path === "package.json" ? Buffer.from(manifest) : readFileSync(join(item.source, file.path)),
  }));
  const tarball = packageTarball(entries);
  writeFileSync(join(vendorDir, listing.filename), tarball);
  packed[item.name] = {
    key,
    file: listing.filename,
    sha256: createHash("sha256").update(tarball).digest("hex"),
  };
  return listing.filename;
}

/**
 * The image's dependencies, for an app that reaches its framework by a path on this machine (the
 * scaffold's `"fw-b": "file:/…/fw-b"`), which a container build cannot see and whose workspace
 * ranges npm cannot read. Packs the framework and every package it reaches the same way into
 * `deploy/docker/vendor/` (as `npm pack` does, `workspace:` ranges replaced by versions), writes
 * `deploy/docker/package.json` (the app's, pointed at those tarballs: the direct ones as its
 * dependencies, the others through `overrides`), resolves `deploy/docker/package-lock.json` with
 * `npm install --package-lock-only` (the registry for everything else), and records the app's
 * package.json checksum so the image build stops when package.json changed since. Always rewritten
 * (run the deploy command again after changing dependencies or upgrading the framework), but a
 * package whose folder did not change is not packed again, nor the lock file resolved again
 * (pack-cache.ts). `drivers` (name -> range) are added to the image's dependencies: the drivers
 * its production configuration needs that the app's package.json does not list (drivers.ts).
 * Returns the paths written, relative to the app folder.
 */
export function writeDockerDependencies(root: string, drivers: Readonly<Record<string, string>> = {}): string[] {
  const appManifestFile = join(root, "package.json");
  if (!existsSync(appManifestFile))
    throw new E_DEPLOY_VENDOR("the app's dependencies", `there is no package.json in ${root}`);
  const appSource = readFileSync(appManifestFile);
  const app = JSON.parse(appSource.toString("utf8")) as Manifest;
  const vendored = collect(root, app);
  const vendorDir = join(root, VENDOR_DIR);
  const dockerDir = join(root, DOCKER_DIR);
  mkdirSync(vendorDir, { recursive: true });
  const cache = readPackCache(dockerDir);
  const packed: Record<string, PackedEntry> = {};
  for (const item of vendored.values()) item.file = pack(item, vendored, vendorDir, cache, packed);
  const files = new Set([...vendored.values()].map((item) => item.file));
  // Tarballs of an earlier run (an older framework version) are not part of this image.
  for (const old of readdirSync(vendorDir)) if (old.endsWith(".tgz") && !files.has(old)) rmSync(join(vendorDir, old));

  const docker: Manifest = structuredClone(app);
  // The drivers the production config needs that the app does not list (see drivers.ts).
  if (Object.keys(drivers).length > 0) docker.dependencies = { ...docker.dependencies, ...drivers };
  const specOf = (item: Vendored) => `file:${VENDOR_DIR}/${item.file}`;
  const direct = new Set<string>();
  for (const field of APP_FIELDS) {
    const specs = docker[field];
    if (!specs) continue;
    for (const name of Object.keys(specs)) {
      const item = vendored.get(name);
      if (item) {
        specs[name] = specOf(item);
        direct.add(name);
      }
    }
  }
  // Packages the framework depends on are pinned to their tarballs wherever they appear in the tree.
  const overrides = { ...docker.overrides };
  for (const item of vendored.values()) overrides[item.name] = direct.has(item.name) ? `$${item.name}` : specOf(item);
  if (Object.keys(overrides).length > 0) docker.overrides = overrides;
  const manifestText = `${JSON.stringify(docker, null, 2)}\n`;
  writeFileSync(join(dockerDir, "package.json"), manifestText);

  // The lock file, resolved where the tarballs lie at the same relative paths as in the image;
  // kept when neither package.json nor any tarball changed since it was resolved.
  const lockKey = createHash("sha256")
    .update(manifestText)
    .update(JSON.stringify([...files].sort().map((file) => [file, fileDigest(join(vendorDir, file))])))
    .digest("hex");
  const lockFile = join(dockerDir, "package-lock.json");
  const lockKept = cache.lock?.key === lockKey && fileDigest(lockFile) === cache.lock.sha256;
  if (!lockKept) {
    const staging = mkdtempSync(join(tmpdir(), "fw-deploy-lock-"));
    try {
      writeFileSync(join(staging, "package.json"), manifestText);
      mkdirSync(join(staging, VENDOR_DIR), { recursive: true });
      for (const file of files) copyFileSync(join(vendorDir, file), join(staging, VENDOR_DIR, file));
      npm(
        ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
        staging,
        "the image's lock file (deploy/docker/package-lock.json)",
      );
      copyFileSync(join(staging, "package-lock.json"), lockFile);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  writePackCache(dockerDir, { packages: packed, lock: { key: lockKey, sha256: fileDigest(lockFile)! } });
  writeFileSync(
    join(dockerDir, "package.json.sha256"),
    `${createHash("sha256").update(appSource).digest("hex")}  package.json\n`,
  );
  const written = ["package.json", "package-lock.json", "package.json.sha256"].map((file) => `${DOCKER_DIR}/${file}`);
  return [...written, ...[...files].sort().map((file) => `${VENDOR_DIR}/${file}`)];
}
