import { E_OPENAPI_OPTION } from "../errors.js";
import type { OpenApiOptions, OpenApiServer } from "./types.js";

/** The generator's options once checked: `servers` as objects. */
export type CheckedOpenApiOptions = Omit<OpenApiOptions, "servers"> & { readonly servers?: readonly OpenApiServer[] };

const KNOWN = ["title", "version", "description", "includeHtml", "servers"];
const SERVER_KEYS = ["url", "description"];

/**
 * The generator's options checked and normalised, so a mistake stops the app at start-up (or the
 * `openApiDocument()` call) with `E_OPENAPI_OPTION` naming it, rather than giving a broken document:
 * `servers` is a list of URLs or `{ url, description }` objects (a string alone is refused, it
 * would spread into characters). Keys other than the generator's own are left to the caller
 * (the config block also has `serve`, `path`, `docsPath`).
 */
export function checkOpenApiOptions(options: OpenApiOptions, where: string): CheckedOpenApiOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new E_OPENAPI_OPTION(where, "options", `expected an object with ${KNOWN.join(", ")}`);
  }
  for (const key of ["title", "version", "description"] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "string" || value.trim() === ""))
      throw new E_OPENAPI_OPTION(where, key, "expected a non-empty string");
  }
  if (options.includeHtml !== undefined && typeof options.includeHtml !== "boolean")
    throw new E_OPENAPI_OPTION(where, "includeHtml", "expected true or false");
  const { servers, ...rest } = options;
  return servers === undefined ? rest : { ...rest, servers: checkServers(servers as unknown, where) };
}

function checkServers(servers: unknown, where: string): OpenApiServer[] {
  if (!Array.isArray(servers)) {
    throw new E_OPENAPI_OPTION(
      where,
      "servers",
      `expected a list such as ["https://api.example.com"] or [{ url: "https://api.example.com", description: "Production" }], got ${describe(servers)}`,
    );
  }
  return servers.map((server: unknown, index) => {
    const at = `servers[${index}]`;
    if (typeof server === "string") return { url: checkUrl(server, where, at) };
    if (typeof server !== "object" || server === null || Array.isArray(server)) {
      throw new E_OPENAPI_OPTION(where, at, `expected a URL string or { url, description }, got ${describe(server)}`);
    }
    const record = server as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!SERVER_KEYS.includes(key))
        throw new E_OPENAPI_OPTION(where, `${at}.${key}`, `unknown key; known: ${SERVER_KEYS.join(", ")}`);
    }
    if (typeof record["url"] !== "string") throw new E_OPENAPI_OPTION(where, `${at}.url`, "expected a URL string");
    const url = checkUrl(record["url"], where, `${at}.url`);
    if (record["description"] === undefined) return { url };
    if (typeof record["description"] !== "string")
      throw new E_OPENAPI_OPTION(where, `${at}.description`, "expected a string");
    return { url, description: record["description"] };
  });
}

/** An absolute http(s) URL, or a path on the serving origin (`/api`). */
function checkUrl(url: string, where: string, at: string): string {
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return url;
  } catch {
    // refused below
  }
  throw new E_OPENAPI_OPTION(
    where,
    at,
    `expected an http(s) URL or a path starting with "/", got ${JSON.stringify(url)}`,
  );
}

function describe(value: unknown): string {
  return typeof value === "string"
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? "a list"
      : value === null
        ? "null"
        : typeof value;
}
