/**
 * The app's public address for absolute links (in mail, OAuth redirect URIs). It comes from the
 * `baseUrl` config key (`BASE_URL`), never from the request: Host and X-Forwarded-Host are
 * written by the client, so a link built from them can point a password-reset token at an
 * attacker's server. Outside production an app without `baseUrl` links to the server's own
 * address (the socket the request arrived on), which the client cannot choose either.
 */
import type { Context } from "koa";
import type { AppConfig } from "./config.js";
import { E_BASE_URL_INVALID, E_BASE_URL_REQUIRED } from "./errors.js";

/**
 * Reads and checks `baseUrl`: an absolute http(s) URL without user, query or fragment, returned
 * without its trailing slash; undefined when unset. A wrong value is a start-up error.
 */
export function resolveBaseUrl(config: Pick<AppConfig, "baseUrl">): string | undefined {
  const value: unknown = config.baseUrl;
  if (value === undefined || value === null || value === "") return undefined;
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    /[?#]/.test(String(value))
  ) {
    throw new E_BASE_URL_INVALID(value);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/**
 * In production, throws `E_BASE_URL_REQUIRED` when `baseUrl` is unset; `needs` says what mails
 * links (`contrib.auth (password-reset and confirmation mails)`). Returns the checked base URL.
 */
export function requireBaseUrl(config: Pick<AppConfig, "baseUrl" | "env">, needs: string): string | undefined {
  const base = resolveBaseUrl(config);
  if (!base && config.env === "production") throw new E_BASE_URL_REQUIRED(needs);
  return base;
}

/** The server's own address the request arrived on (`http://127.0.0.1:3000`), not the Host header. */
export function serverOrigin(ctx: Context): string {
  const socket = ctx.req.socket as typeof ctx.req.socket & { encrypted?: boolean };
  const raw = socket.localAddress?.replace(/^::ffff:/, "") || "localhost";
  const host = raw.includes(":") ? `[${raw}]` : raw;
  const port = socket.localPort ? `:${socket.localPort}` : "";
  return `${socket.encrypted ? "https" : "http"}://${host}${port}`;
}

/**
 * The absolute URL of `path` (a path of this app, starting with `/`): `baseUrl` + path when a
 * base URL is configured; else, outside production, the server's own address + `basePath` +
 * path. In production without a base URL it throws `E_BASE_URL_REQUIRED` (the app's start-up
 * check should have refused first).
 */
export function publicUrl(
  ctx: Context,
  options: { readonly baseUrl: string | undefined; readonly env: string; readonly basePath?: string },
  path: string,
): string {
  if (options.baseUrl) return `${options.baseUrl}${path}`;
  if (options.env === "production") throw new E_BASE_URL_REQUIRED("an absolute link");
  return `${serverOrigin(ctx)}${options.basePath ?? ""}${path}`;
}
