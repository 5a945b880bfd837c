/**
 * The drivers a production image needs: the optional peer dependencies of the batteries that the
 * app's production configuration names (`DB_URL=postgres://...` -> pg, a `redis://` session, cache
 * or queue -> ioredis, a Redis queue -> bullmq, ...), plus those of the services the generated
 * compose file runs (PostgreSQL, Redis sessions, cache and queue). Drivers load from the app's
 * folder (never from the framework's), so an image without one fails at start: the deploy command
 * adds each one the app's package.json lacks to the image's package.json, at the battery's range.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageDirFrom } from "../../scaffold-links.js";

/** The batteries whose optional peers are drivers, as the framework depends on them. */
const BATTERIES = ["@fwkit/data", "@fwkit/security", "@fwkit/services", "@fwkit/jobs", "@fwkit/observability"];

/** The services the generated compose file gives the app (its environment block). */
export const COMPOSE_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  dbUrl: "postgres://",
  sessionUrl: "redis://",
  cacheUrl: "redis://",
  redisUrl: "redis://",
  queueUrl: "redis://",
});

/** What a config's value of each key needs, by the start of its URL. */
function driversOf(key: string, value: unknown): string[] {
  if (typeof value !== "string") return [];
  const scheme = /^([a-z0-9+]+):/i.exec(value)?.[1]?.toLowerCase() ?? "";
  const redis = scheme === "redis" || scheme === "rediss";
  if (key === "dbUrl") {
    if (scheme === "postgres" || scheme === "postgresql") return ["pg"];
    if (scheme === "mysql") return ["mysql2"];
    return scheme === "sqlite" ? ["better-sqlite3"] : [];
  }
  if (key === "queueUrl") return redis ? ["bullmq", "ioredis"] : [];
  if (key === "sessionUrl") {
    if (redis) return ["ioredis"];
    if (scheme === "postgres" || scheme === "postgresql") return ["pg"];
    if (scheme === "mysql") return ["mysql2"];
    if (scheme === "s3" || scheme === "gs") return ["@aws-sdk/client-s3"];
    return scheme === "azblob" ? ["@azure/storage-blob"] : [];
  }
  if (key === "cacheUrl" || key === "redisUrl") return redis ? ["ioredis"] : [];
  if (key === "mailUrl") {
    if (scheme === "smtp" || scheme === "smtps") return ["nodemailer"];
    return scheme === "ses" ? ["@aws-sdk/client-sesv2", "nodemailer"] : [];
  }
  if (key === "storageUrl") {
    if (scheme === "s3" || scheme === "gs") return ["flydrive", "@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"];
    if (scheme === "azblob") return ["flydrive", "@azure/storage-blob"];
    return ["flydrive"];
  }
  if (key === "passwordAlgorithm") return value === "argon2id" ? ["@node-rs/argon2"] : [];
  return [];
}

/** The driver packages a config (its top-level URL keys and password algorithm) names. */
export function configDrivers(config: Readonly<Record<string, unknown>>): string[] {
  const names = new Set<string>();
  for (const [key, value] of Object.entries(config)) for (const name of driversOf(key, value)) names.add(name);
  return [...names].sort();
}

/**
 * The peer range of each driver, from the batteries the app's framework depends on (found from the
 * app's folder); a driver no battery declares is left out.
 */
export function driverRanges(root: string, framework: string): Record<string, string> {
  const frameworkDir = packageDirFrom(root, framework);
  const ranges: Record<string, string> = {};
  if (frameworkDir === undefined) return ranges;
  for (const battery of BATTERIES) {
    const dir = packageDirFrom(frameworkDir, battery);
    if (dir === undefined || !existsSync(join(dir, "package.json"))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      peerDependencies?: Record<string, string>;
    };
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) ranges[name] ??= range;
  }
  return ranges;
}

/**
 * The drivers the image's package.json adds to the app's: each one `needed` names that the app
 * lists in none of its dependency fields, at the battery's range (`undefined` when no battery
 * declares it: left for the app to add).
 */
export function missingDrivers(
  app: { readonly [field: string]: unknown },
  needed: readonly string[],
  ranges: Readonly<Record<string, string>>,
): Record<string, string> {
  const listed = new Set<string>();
  for (const field of ["dependencies", "optionalDependencies"]) {
    const specs = app[field];
    if (specs && typeof specs === "object") for (const name of Object.keys(specs)) listed.add(name);
  }
  const added: Record<string, string> = {};
  for (const name of needed) if (!listed.has(name) && ranges[name] !== undefined) added[name] = ranges[name];
  return added;
}

/**
 * The driver packages the app's production configuration names (APP_ENV=production, its
 * `environments.production` section and the environment), plus those of the compose file's
 * services. The secret key is replaced by a random one for the read; a config that cannot be read
 * counts as naming none.
 */
export async function productionDrivers(root: string, secretKey: string): Promise<string[]> {
  const { loadConfig } = await import("@fwkit/koa-host");
  let config: Record<string, unknown> = {};
  try {
    config = (await loadConfig(root, { secretKey }, { ...process.env, APP_ENV: "production" })) as unknown as Record<
      string,
      unknown
    >;
  } catch {
    // The image still gets the compose file's drivers.
  }
  return [...new Set([...configDrivers(config), ...configDrivers(COMPOSE_ENVIRONMENT)])].sort();
}
