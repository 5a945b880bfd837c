import type * as client from "openid-client";
import type { OAuthProviderOptions } from "../config.js";
import { CONTRIB_DRIVERS, importDriver } from "../drivers.js";

let loaded: Promise<typeof client> | undefined;

/**
 * openid-client (an optional peer dependency of fw-b), imported at the first OAuth sign-in: apps
 * without `contrib.oauth` never load it. Start-up checks that it is installed
 * (checkContribDrivers); a failed import is E_CONTRIB_DRIVER_MISSING, retried at the next sign-in.
 */
export function openidClient(): Promise<typeof client> {
  loaded ??= importDriver<typeof import("openid-client")>(CONTRIB_DRIVERS.oauth.name, CONTRIB_DRIVERS.oauth.user).catch(
    (error: unknown) => {
      loaded = undefined;
      throw error;
    },
  );
  return loaded;
}

/** What fw-b needs from a provider's answer. */
export interface OAuthProfile {
  /** The provider's stable id of the account. */
  readonly subject: string;
  readonly email: string | undefined;
  /** True only when the provider says it confirmed the address. */
  readonly emailVerified: boolean;
  readonly name: string | undefined;
}

const GITHUB = {
  authorizationEndpoint: "https://github.com/login/oauth/authorize",
  tokenEndpoint: "https://github.com/login/oauth/access_token",
  userinfoEndpoint: "https://api.github.com/user",
};

/** True for providers that sign an ID token (OpenID Connect). */
export function isOidc(options: OAuthProviderOptions): boolean {
  return options.type === "oidc" || options.type === "google";
}

/** The default scopes of a provider type. */
export function scopeOf(options: OAuthProviderOptions): string {
  if (options.scope) return options.scope;
  return options.type === "github" ? "read:user user:email" : "openid email profile";
}

/** Builds an openid-client Configuration: by discovery for OpenID Connect, from endpoints otherwise. */
export async function configurationOf(options: OAuthProviderOptions): Promise<client.Configuration> {
  const oidc = await openidClient();
  const insecure = options.allowInsecure ? { execute: [oidc.allowInsecureRequests] } : {};
  if (isOidc(options)) {
    const issuer = options.type === "google" ? (options.issuer ?? "https://accounts.google.com") : options.issuer!;
    return oidc.discovery(new URL(issuer), options.clientId, options.clientSecret, undefined, insecure);
  }
  const endpoints = options.type === "github" ? { ...GITHUB, ...definedOnly(options) } : definedOnly(options);
  const config = new oidc.Configuration(
    {
      issuer: new URL(endpoints.authorizationEndpoint!).origin,
      authorization_endpoint: endpoints.authorizationEndpoint!,
      token_endpoint: endpoints.tokenEndpoint!,
      userinfo_endpoint: endpoints.userinfoEndpoint!,
    },
    options.clientId,
    options.clientSecret,
  );
  if (options.allowInsecure) oidc.allowInsecureRequests(config);
  return config;
}

function definedOnly(options: OAuthProviderOptions): {
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
} {
  return Object.fromEntries(
    Object.entries({
      authorizationEndpoint: options.authorizationEndpoint,
      tokenEndpoint: options.tokenEndpoint,
      userinfoEndpoint: options.userinfoEndpoint,
    }).filter(([, v]) => v),
  );
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== ""
    ? value.trim()
    : typeof value === "number"
      ? String(value)
      : undefined;
}

async function getJson(config: client.Configuration, token: string, url: string): Promise<unknown> {
  const oidc = await openidClient();
  const response = await oidc.fetchProtectedResource(
    config,
    token,
    new URL(url),
    "GET",
    undefined,
    new Headers({ accept: "application/json" }),
  );
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/**
 * The profile behind a token answer: an OpenID Connect provider's ID token (and its userinfo
 * when the token lacks the email); GitHub's /user and /user/emails (the primary verified
 * address); an `oauth2` provider's userinfo endpoint (`sub` or `id`, `email`, `email_verified`).
 */
export async function profileOf(
  options: OAuthProviderOptions,
  config: client.Configuration,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
): Promise<OAuthProfile> {
  if (isOidc(options)) {
    const oidc = await openidClient();
    const claims = tokens.claims();
    if (!claims) throw new Error("the provider sent no ID token");
    let info: Record<string, unknown> = claims;
    if (!text(claims["email"]))
      info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    return {
      subject: claims.sub,
      email: text(info["email"])?.toLowerCase(),
      emailVerified: info["email_verified"] === true,
      name: text(info["name"]),
    };
  }
  const endpoint = options.userinfoEndpoint ?? GITHUB.userinfoEndpoint;
  const user = (await getJson(config, tokens.access_token, endpoint)) as Record<string, unknown>;
  const subject = text(user["sub"]) ?? text(user["id"]);
  if (!subject) throw new Error("the provider's profile has no id");
  if (options.type === "github") {
    const emails = (await getJson(config, tokens.access_token, `${new URL(endpoint).origin}/user/emails`)) as Array<
      Record<string, unknown>
    >;
    const primary = Array.isArray(emails)
      ? emails.find((e) => e["primary"] === true && e["verified"] === true)
      : undefined;
    return {
      subject,
      email: text(primary?.["email"])?.toLowerCase(),
      emailVerified: Boolean(primary),
      name: text(user["name"]) ?? text(user["login"]),
    };
  }
  return {
    subject,
    email: text(user["email"])?.toLowerCase(),
    emailVerified: user["email_verified"] === true,
    name: text(user["name"]),
  };
}

/** Configurations per provider, made on first use (discovery needs the network) and kept. */
export class OAuthClients {
  readonly #providers: Readonly<Record<string, OAuthProviderOptions>>;
  readonly #configs = new Map<string, Promise<client.Configuration>>();

  constructor(providers: Readonly<Record<string, OAuthProviderOptions>>) {
    this.#providers = providers;
  }

  /** The options of a provider, or undefined for an unknown name. */
  options(name: string): OAuthProviderOptions | undefined {
    return Object.hasOwn(this.#providers, name) ? this.#providers[name] : undefined;
  }

  /** The provider's configuration (a failed discovery is retried next time). */
  configuration(name: string): Promise<client.Configuration> {
    let config = this.#configs.get(name);
    if (!config) {
      config = configurationOf(this.options(name)!);
      config.catch(() => this.#configs.delete(name));
      this.#configs.set(name, config);
    }
    return config;
  }
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/**
 * True when an OAuth failure is the provider's side, not the visitor's: the network (refused,
 * reset, timeout, DNS), or an answer with a 5xx status. Walks the `cause` chain (fetch wraps the
 * socket error; openid-client wraps fetch's).
 */
export function providerUnavailable(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current && depth < 6;
    current = (current as { cause?: unknown }).cause, depth++
  ) {
    const { code, name, status, message } = current as {
      code?: unknown;
      name?: unknown;
      status?: unknown;
      message?: unknown;
    };
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    if (name === "TimeoutError" || name === "AbortError") return true;
    if (current instanceof TypeError && message === "fetch failed") return true;
    if (typeof status === "number" && status >= 500) return true;
    if (current instanceof Response && current.status >= 500) return true;
  }
  return false;
}
