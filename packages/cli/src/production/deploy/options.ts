/** What every generated deploy file is made from. */
export interface DeployTarget {
  /** The app's name (package.json `name`): image, service and unit names. */
  readonly name: string;
  /** The framework's CLI name (`fw-a`, `fw-b`): its executable starts, builds and migrates. */
  readonly framework: string;
  /** The framework's commands by role, as its CLI names them. */
  readonly commands: {
    readonly build: string;
    readonly start: string;
    readonly migrate: string;
    readonly work: string;
  };
  /** The port the app listens on inside its host or container (default 5000). */
  readonly port: number;
  /** Readiness and liveness paths (the app's `readyPath` and `healthPath`). */
  readonly readyPath: string;
  readonly healthPath: string;
  /** Seconds requests get to finish at shutdown (`shutdownGrace`). */
  readonly graceSeconds: number;
  /**
   * The app's public host names (`--host`, or the host of `BASE_URL`): the generated balancers
   * refuse every other `Host`, so nothing the app builds from the request can name another site.
   */
  readonly hosts: readonly string[];
  /**
   * The path the app serves its metrics on (`metrics.path`, default `/metrics`): the generated
   * balancers refuse it, whatever the app's port, and Prometheus scrapes it on the metrics port.
   */
  readonly metricsPath: string;
  /**
   * The path of the app's realtime stream (`realtime.path`, default `/_events`): the generated
   * balancers let it stream unbuffered and stay open between heartbeats, WebSocket upgrades included.
   */
  readonly realtimePath?: string;
}

/** The realtime stream's path when the target names none (the realtime battery's default). */
export const REALTIME_PATH = "/_events";

/** The host name the deploy files carry when none was given: a placeholder to replace. */
export const PLACEHOLDER_HOST = "app.example.com";

/** True for a host name a balancer can match (`shop.example.com`, `localhost`, `127.0.0.1`). */
export function isHostName(value: string): boolean {
  return /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(value);
}

/** The node executable of a framework's CLI inside an installed app. */
export function cliPath(target: DeployTarget): string {
  return `node_modules/${target.framework}/bin/${target.framework}.js`;
}

/** A name usable for images, units, Kubernetes objects and HAProxy backends. */
export function safeName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/^@[^/]+\//, "")
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 50) || "app"
  );
}
