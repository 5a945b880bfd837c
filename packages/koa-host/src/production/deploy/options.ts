/** What every generated deploy file is made from. */
export interface DeployTarget {
  /** The app's name (package.json `name`): image, service and unit names. */
  readonly name: string;
  /** The framework's CLI name (`fw-a`, `fw-b`): its executable starts, builds and migrates. */
  readonly framework: string;
  /** The framework's commands by role, as its CLI names them. */
  readonly commands: { readonly build: string; readonly start: string; readonly migrate: string };
  /** The port the app listens on inside its host or container (default 5000). */
  readonly port: number;
  /** Readiness and liveness paths (the app's `readyPath` and `healthPath`). */
  readonly readyPath: string;
  readonly healthPath: string;
  /** Seconds requests get to finish at shutdown (`shutdownGrace`). */
  readonly graceSeconds: number;
}

/** The node executable of a framework's CLI inside an installed app. */
export function cliPath(target: DeployTarget): string {
  return `node_modules/${target.framework}/bin/${target.framework}.js`;
}

/** A name usable for images, units, Kubernetes objects and HAProxy backends. */
export function safeName(name: string): string {
  return name.toLowerCase().replace(/^@[^/]+\//, "").replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 50) || "app";
}
