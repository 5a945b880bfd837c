import type { RouteTable } from "routing-kernel";
import { formatRouteListing, type RouteListing } from "routing-kernel/plugin";
import { E_MOUNT_OVERLAP, E_MOUNT_PREFIX_INVALID } from "./errors.js";
import type { Host, MountedApp } from "./host-types.js";

/** What a mount prefix is checked against: everything the parent app itself serves. */
export interface MountParent {
  readonly table: RouteTable;
  /** URL prefixes of the parent's static folders (`/static`). */
  readonly staticPrefixes: readonly string[];
  readonly mounts: readonly MountedApp[];
}

const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/**
 * A mount prefix as the host keeps it: starts with `/`, no trailing slash, not the root, plain
 * path segments (no parameters, query or fragment). Anything else is refused at start-up.
 */
export function mountPrefix(prefix: string): string {
  const trimmed = typeof prefix === "string" ? prefix.replace(/\/+$/, "") : "";
  const segments = trimmed.split("/").slice(1);
  if (
    !trimmed.startsWith("/") ||
    segments.length === 0 ||
    segments.some((s) => !SEGMENT.test(s) || s.startsWith(":") || s === "." || s === "..")
  ) {
    throw new E_MOUNT_PREFIX_INVALID(String(prefix));
  }
  return trimmed;
}

/**
 * Refuses a mount that would hide something the parent serves. Requests under the prefix go to
 * the mounted app before the parent's routes are looked at, so a parent route whose path lies
 * under the prefix (`GET /api/` of an `Api` class beside `mounts: { "/api": api }`) would never
 * answer. A parameter segment (`/:page/`) only loses the one value, so it is not an overlap.
 */
export function checkMount(parent: MountParent, prefix: string): void {
  const at = mountPrefix(prefix);
  const under = segmentsOf(at);
  for (const route of parent.table.routes) {
    const hidden = route.patterns.find((pattern) => startsWithSegments(segmentsOf(pattern), under));
    if (hidden !== undefined) {
      throw new E_MOUNT_OVERLAP(
        at,
        `the route ${route.verbs.join(",")} ${route.path} (${route.id}() in views/${route.module})`,
      );
    }
  }
  for (const folder of parent.staticPrefixes) {
    const segments = segmentsOf(folder);
    if (startsWithSegments(segments, under) || startsWithSegments(under, segments)) {
      throw new E_MOUNT_OVERLAP(at, `the static files under ${folder}`);
    }
  }
  for (const mounted of parent.mounts) {
    const segments = segmentsOf(mounted.prefix);
    if (startsWithSegments(segments, under) || startsWithSegments(under, segments)) {
      throw new E_MOUNT_OVERLAP(at, `the app mounted at ${mounted.prefix}`);
    }
  }
}

/**
 * Every route an app answers, for `routes` and `routes --json`: its own, then each mounted app's
 * (and theirs, recursively) with the mount prefix in front of the path and as `mount`.
 */
export function routeListing(host: Host, prefix = ""): RouteListing[] {
  const own = host.table.toJSON((route) => host.describe(route));
  const listing: RouteListing[] =
    prefix === "" ? own : own.map((item) => ({ ...item, path: prefix + item.path, mount: prefix }));
  for (const mounted of host.mounts) listing.push(...routeListing(mounted.host, prefix + mounted.prefix));
  return listing;
}

/** The aligned text of {@link routeListing}. */
export function formatRoutes(host: Host): string {
  return formatRouteListing(routeListing(host));
}

function segmentsOf(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

function startsWithSegments(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}
