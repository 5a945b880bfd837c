import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { findAppEntry } from "@fwkit/koa-host/operations";
import { writeScaffold, type ScaffoldResult } from "../../scaffold.js";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host/operations";
import { E_DEPLOY_OPTION } from "../../errors.js";
import { PRODUCTION_DEFAULTS } from "@fwkit/koa-host/operations";
import { COMPOSE_PEM, composeFile, dockerfile, dockerignore } from "./docker.js";
import { kubernetesManifests } from "./kubernetes.js";
import { METRICS_PATH, METRICS_PORT, prometheusConfig } from "./metrics.js";
import { isHostName, PLACEHOLDER_HOST, REALTIME_PATH, safeName, type DeployTarget } from "./options.js";
import { haproxyConfig, nginxConfig } from "./proxies.js";
import { systemdUnit, systemdWorkerUnit } from "./systemd.js";
import { writeDockerDependencies } from "./vendor.js";
import { COMPOSE_ENVIRONMENT, configDrivers, driverRanges, missingDrivers } from "./drivers.js";

export { composeFile, dockerfile, dockerignore } from "./docker.js";
export { kubernetesManifests } from "./kubernetes.js";
export { METRICS_PATH, METRICS_PORT, prometheusConfig, type PrometheusOptions } from "./metrics.js";
export { cliPath, PLACEHOLDER_HOST, safeName, type DeployTarget } from "./options.js";
export {
  haproxyConfig,
  haproxyPemPath,
  nginxCertificatePaths,
  nginxConfig,
  type HaproxyOptions,
  type NginxOptions,
} from "./proxies.js";
export { systemdUnit, systemdWorkerUnit } from "./systemd.js";
export { DOCKER_DIR, VENDOR_DIR, writeDockerDependencies } from "./vendor.js";
export { configDrivers, productionDrivers } from "./drivers.js";

/** Each framework's command names, by role. */
const COMMANDS: Readonly<Record<string, DeployTarget["commands"]>> = {
  "fw-a": { build: "gen:build", start: "start", migrate: "db:migrate", work: "jobs:work" },
  "fw-b": { build: ":build", start: "start", migrate: ":migrate", work: ":work" },
};

/**
 * The public host names the deploy files serve: the given ones (checked), else the host of
 * `BASE_URL`, else {@link PLACEHOLDER_HOST} (the files then refuse every request until it is replaced).
 */
export function deployHosts(
  given: readonly string[] | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): readonly string[] {
  const names = given && given.length > 0 ? given.map((name) => name.trim().toLowerCase()) : [];
  if (names.length === 0 && environment["BASE_URL"]) {
    try {
      names.push(new URL(environment["BASE_URL"]).hostname.toLowerCase());
    } catch {
      throw new E_DEPLOY_OPTION(
        "BASE_URL",
        "an absolute URL such as https://shop.example.com",
        environment["BASE_URL"],
      );
    }
  }
  for (const name of names)
    if (!isHostName(name))
      throw new E_DEPLOY_OPTION("--host", "a host name such as shop.example.com (no scheme, port or path)", name);
  return Object.freeze(names.length > 0 ? [...new Set(names)] : [PLACEHOLDER_HOST]);
}

/** The deploy target of an app folder: its package name, the framework's commands, the defaults. */
export function deployTarget(root: string, framework: string, overrides: Partial<DeployTarget> = {}): DeployTarget {
  const packageFile = join(root, "package.json");
  let name = basename(root);
  if (existsSync(packageFile)) {
    const declared = (JSON.parse(readFileSync(packageFile, "utf8")) as { name?: unknown }).name;
    if (typeof declared === "string" && declared) name = declared;
  }
  return {
    name: safeName(name),
    framework,
    commands: COMMANDS[framework] ?? { build: "build", start: "start", migrate: "migrate", work: "work" },
    port: 5000,
    readyPath: PRODUCTION_DEFAULTS.readyPath,
    healthPath: PRODUCTION_DEFAULTS.healthPath,
    graceSeconds: PRODUCTION_DEFAULTS.shutdownGrace,
    hosts: deployHosts(undefined),
    metricsPath: METRICS_PATH,
    realtimePath: REALTIME_PATH,
    ...overrides,
  };
}

/** A path a balancer's config can name as it is: `/`, then letters, digits and `. _ ~ / -`. */
const SAFE_PATH = /^\/[A-Za-z0-9._~/-]*$/;

/**
 * The paths the generated balancers treat apart, as the app's production config sets them (its
 * `environments.production` section included): `metrics.path`, refused to the public, and
 * `realtime.path`, where streams and WebSocket upgrades are let through unbuffered and stay open
 * between heartbeats. A path the config does not set (or that cannot be read) is the default. Only
 * these paths are read: the secret key is replaced by a random one for the read (writing files
 * needs none).
 */
export async function appDeployPaths(
  root: string,
): Promise<{ readonly metricsPath: string; readonly realtimePath: string }> {
  const { loadConfig } = await import("@fwkit/koa-host");
  let config: { metrics?: { path?: unknown }; realtime?: { path?: unknown } } = {};
  try {
    config = (await loadConfig(
      root,
      { secretKey: randomBytes(32).toString("base64url") },
      { ...process.env, APP_ENV: "production" },
    )) as unknown as typeof config;
  } catch {
    // No config, or one that cannot load here: the defaults (the app's own start-up reports it).
  }
  const metrics = config.metrics?.path;
  const realtime = config.realtime?.path;
  return {
    metricsPath: typeof metrics === "string" && SAFE_PATH.test(metrics) ? metrics : METRICS_PATH,
    realtimePath: typeof realtime === "string" && SAFE_PATH.test(realtime) ? realtime : REALTIME_PATH,
  };
}

/** The app's `metrics.path` in production ({@link appDeployPaths}); `/metrics` when unset. */
export async function appMetricsPath(root: string): Promise<string> {
  return (await appDeployPaths(root)).metricsPath;
}

/** The files the deploy command writes (relative path -> content). */
export function deployFiles(target: DeployTarget): Record<string, string> {
  const name = safeName(target.name);
  return {
    Dockerfile: dockerfile(target),
    ".dockerignore": dockerignore(),
    "compose.yaml": composeFile(target),
    "deploy/haproxy.cfg": haproxyConfig(target, {
      servers: ["10.0.0.11:5000", "10.0.0.12:5000"],
      log: "/dev/log local0",
    }),
    "deploy/haproxy.compose.cfg": haproxyConfig(target, {
      servers: { dns: `app:${target.port}`, count: 10, resolver: "127.0.0.11:53" },
      tls: { bind: ":443", pem: COMPOSE_PEM },
    }),
    "deploy/nginx.conf": nginxConfig(target, { servers: ["10.0.0.11:5000", "10.0.0.12:5000"] }),
    [`deploy/${name}.service`]: systemdUnit(target),
    [`deploy/${name}-worker.service`]: systemdWorkerUnit(target),
    "deploy/kubernetes.yaml": kubernetesManifests(target),
    "deploy/prometheus.yml": prometheusConfig(target, {
      targets: [`10.0.0.11:${METRICS_PORT}`, `10.0.0.12:${METRICS_PORT}`],
    }),
  };
}

/**
 * `gen:deploy` / `:deploy`: writes the deployment files into the app folder, never overwriting one
 * that exists (edit them freely; delete one to get it again). Then rewrites `deploy/docker/`, the
 * image's package.json, lock file and packed framework (`refreshed`): those follow the app's
 * package.json and the framework, so every run brings them up to date.
 */
export function writeDeployFiles(options: {
  readonly root: string;
  readonly framework: string;
  readonly hosts?: readonly string[];
  /** The app's `metrics.path` ({@link appDeployPaths}); default `/metrics`. */
  readonly metricsPath?: string;
  /** The app's `realtime.path` ({@link appDeployPaths}); default `/_events`. */
  readonly realtimePath?: string;
  /** The drivers its production config needs ({@link productionDrivers}); default: the compose file's. */
  readonly drivers?: readonly string[];
}): ScaffoldResult & { readonly refreshed: readonly string[]; readonly drivers: Readonly<Record<string, string>> } {
  if (!findAppEntry(options.root))
    throw new E_APP_NOT_FOUND(
      options.root,
      "there is no app.ts; run the init command of your framework first, or pass --root",
    );
  const result = writeScaffold(
    options.root,
    deployFiles(
      deployTarget(options.root, options.framework, {
        hosts: deployHosts(options.hosts),
        ...(options.metricsPath ? { metricsPath: options.metricsPath } : {}),
        ...(options.realtimePath ? { realtimePath: options.realtimePath } : {}),
      }),
    ),
  );
  const app = JSON.parse(readFileSync(join(options.root, "package.json"), "utf8")) as Record<string, unknown>;
  const drivers = missingDrivers(
    app,
    options.drivers ?? configDrivers(COMPOSE_ENVIRONMENT),
    driverRanges(options.root, options.framework),
  );
  return { ...result, refreshed: writeDockerDependencies(options.root, drivers), drivers };
}
