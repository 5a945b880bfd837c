import type { AppConfig } from "@fwkit/koa-host";
import { E_CONTRIB_CONFIG } from "../errors.js";
import type { CaptchaVerifier } from "./captcha/verifier.js";
import { DEFAULT_ROLES } from "./roles.js";

/** `contrib.auth`: the login, signup, password and account pages. */
export interface AuthContribOptions {
  /** Refuse to log in until the email address is confirmed (default false: a link is mailed anyway). */
  readonly requireVerification?: boolean;
  /** Seconds a password-reset link works (default 3600: one hour). */
  readonly resetTokenTtl?: number;
  /** Seconds an email-confirmation link works (default 172800: two days). */
  readonly verifyTokenTtl?: number;
  /** Let visitors create accounts (default true). */
  readonly signup?: boolean;
  /** Role names and their levels (default member 10, editor 20, admin 30, superadmin 40). */
  readonly roles?: Readonly<Record<string, number>>;
  /** The role of new accounts (default `member`). */
  readonly defaultRole?: string;
  /** The lowest role that reaches the admin area (default `admin`). */
  readonly adminRole?: string;
  /** Where to go after logging in when no `next` was asked for (default `/`). */
  readonly afterLogin?: string;
}

/** `contrib.contact`: the contact form. */
export interface ContactContribOptions {
  /** Who receives the messages. */
  readonly recipients: readonly string[];
}

/** `contrib.maintenance`: the maintenance switch. */
export interface MaintenanceContribOptions {
  /** Seconds sent in `Retry-After` (default 600). */
  readonly retryAfter?: number;
  /** How long a process trusts the flag it read, in milliseconds (default 1000). */
  readonly cacheMs?: number;
}

/** `contrib.captcha`: the captcha of signup, contact and lost password. */
export interface CaptchaContribOptions {
  /** A hosted service's verifier instead of the built-in SVG captcha. */
  readonly verifier?: CaptchaVerifier;
  /** Characters in the built-in captcha (default 5). */
  readonly size?: number;
  /** Test mode (refused in production): the answer is written in the page as `data-test-answer`. */
  readonly testMode?: boolean;
  /** Called with each new answer of the built-in captcha (tests read it here). */
  readonly onChallenge?: (answer: string) => void;
}

/** `contrib.i18n`: languages of the contrib pages and messages. */
export interface I18nContribOptions {
  /** Languages offered (default: English and those of `resources` and `locales/*.json`). */
  readonly languages?: readonly string[];
  /** The language when nothing else matches (default `en`). */
  readonly fallback?: string;
  /** Extra translations: `{ fr: { "auth.login.title": "Connexion", ... } }`. */
  readonly resources?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** One OAuth / OpenID Connect provider. */
export interface OAuthProviderOptions {
  /** `oidc` (any OpenID Connect provider, by discovery), `google`, `github`, or `oauth2` (explicit endpoints). */
  readonly type: "oidc" | "google" | "github" | "oauth2";
  readonly clientId: string;
  readonly clientSecret: string;
  /** The issuer URL (`oidc`). */
  readonly issuer?: string;
  /** Endpoints (`oauth2`; they default to GitHub's for `github`). */
  readonly authorizationEndpoint?: string;
  readonly tokenEndpoint?: string;
  readonly userinfoEndpoint?: string;
  /** Scopes (default per type). */
  readonly scope?: string;
  /** The button text (default: the provider's name). */
  readonly title?: string;
  /** Allow http:// endpoints (a local provider in tests and development only). */
  readonly allowInsecure?: boolean;
}

/** `contrib.oauth`: sign in with other providers. */
export interface OAuthContribOptions {
  readonly providers: Readonly<Record<string, OAuthProviderOptions>>;
  /** Create an account for a new verified email address (default true). */
  readonly signup?: boolean;
}

/** The `contrib` config key: one entry per module, `true` for its defaults. */
export interface ContribConfig {
  readonly auth?: AuthContribOptions | boolean;
  readonly admin?: boolean | { readonly title?: string };
  readonly contact?: ContactContribOptions;
  readonly errors?: boolean;
  readonly maintenance?: MaintenanceContribOptions | boolean;
  readonly captcha?: CaptchaContribOptions | boolean;
  readonly i18n?: I18nContribOptions | boolean;
  readonly oauth?: OAuthContribOptions;
}

/** The resolved auth options. */
export type AuthSettings = Required<Omit<AuthContribOptions, "roles">> & {
  readonly roles: Readonly<Record<string, number>>;
};

/** The contrib modules an app enabled, with their options resolved. */
export interface ContribSettings {
  readonly auth?: AuthSettings;
  readonly admin?: { readonly title: string };
  readonly contact?: ContactContribOptions;
  readonly errors: boolean;
  readonly maintenance?: Required<MaintenanceContribOptions>;
  readonly captcha?: CaptchaContribOptions;
  readonly i18n: I18nContribOptions;
  readonly oauth?: OAuthContribOptions;
  /** True when any module that needs the database is on. */
  readonly usesDatabase: boolean;
}

const MODULES = ["auth", "admin", "contact", "errors", "maintenance", "captcha", "i18n", "oauth"];

/** The `contrib` block's keys, for the host's start-up check (a module given `true` is not looked into). */
export const CONTRIB_CONFIG_KEYS = Object.freeze({
  contrib: Object.freeze({
    auth: Object.freeze({
      requireVerification: true,
      resetTokenTtl: true,
      verifyTokenTtl: true,
      signup: true,
      roles: true,
      defaultRole: true,
      adminRole: true,
      afterLogin: true,
    }),
    admin: Object.freeze({ title: true }),
    contact: Object.freeze({ recipients: true }),
    errors: true,
    maintenance: Object.freeze({ retryAfter: true, cacheMs: true }),
    captcha: Object.freeze({ verifier: true, size: true, testMode: true, onChallenge: true }),
    i18n: Object.freeze({ languages: true, fallback: true, resources: true }),
    // Provider names are the app's own; each provider's options are checked when it is set up.
    oauth: Object.freeze({ providers: true, signup: true }),
  }),
} as const);
const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

function section<T extends object>(value: unknown, key: string): T | undefined {
  if (value === undefined || value === false || value === null) return undefined;
  if (value === true) return {} as T;
  if (typeof value !== "object" || Array.isArray(value))
    throw new E_CONTRIB_CONFIG(`contrib.${key}`, "expected true, false or an object");
  return value as T;
}

function seconds(value: unknown, key: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw new E_CONTRIB_CONFIG(key, "expected a whole number of seconds, 1 or more");
  return value;
}

function milliseconds(value: unknown, key: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw new E_CONTRIB_CONFIG(key, "expected a whole number of milliseconds, 0 or more");
  return value;
}

function resolveAuth(raw: AuthContribOptions | undefined): AuthSettings | undefined {
  if (!raw) return undefined;
  const roles = raw.roles ?? DEFAULT_ROLES;
  for (const [name, level] of Object.entries(roles)) {
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(name) || typeof level !== "number" || !Number.isFinite(level)) {
      throw new E_CONTRIB_CONFIG(
        "contrib.auth.roles",
        `role ${JSON.stringify(name)} needs a lowercase name and a numeric level`,
      );
    }
  }
  const defaultRole = raw.defaultRole ?? "member";
  const adminRole = raw.adminRole ?? "admin";
  for (const [key, role] of [
    ["defaultRole", defaultRole],
    ["adminRole", adminRole],
  ] as const) {
    if (roles[role] === undefined)
      throw new E_CONTRIB_CONFIG(
        `contrib.auth.${key}`,
        `${JSON.stringify(role)} is not one of the roles (${Object.keys(roles).join(", ")})`,
      );
  }
  const afterLogin = raw.afterLogin ?? "/";
  if (!afterLogin.startsWith("/") || afterLogin.startsWith("//"))
    throw new E_CONTRIB_CONFIG("contrib.auth.afterLogin", "expected a path on this site, such as /");
  return Object.freeze({
    requireVerification: raw.requireVerification ?? false,
    resetTokenTtl: seconds(raw.resetTokenTtl, "contrib.auth.resetTokenTtl", 3600),
    verifyTokenTtl: seconds(raw.verifyTokenTtl, "contrib.auth.verifyTokenTtl", 2 * 86400),
    signup: raw.signup ?? true,
    roles: Object.freeze({ ...roles }),
    defaultRole,
    adminRole,
    afterLogin,
  });
}

/**
 * Reads and checks the `contrib` config key once at start-up: which modules are on, their
 * options and their dependencies (admin, contact's admin list and OAuth need auth).
 */
export function contribSettings(config: AppConfig): ContribSettings {
  const raw = config["contrib"];
  if (raw !== undefined && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
    throw new E_CONTRIB_CONFIG("contrib", "expected an object such as { auth: true, admin: true }");
  }
  const input = (raw ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!MODULES.includes(key))
      throw new E_CONTRIB_CONFIG(`contrib.${key}`, `there is no such module; the modules are ${MODULES.join(", ")}`);
  }
  const auth = resolveAuth(section<AuthContribOptions>(input["auth"], "auth"));
  const adminRaw = section<{ title?: string }>(input["admin"], "admin");
  if (adminRaw && !auth)
    throw new E_CONTRIB_CONFIG("contrib.admin", "the admin area needs contrib.auth (its users and roles)");
  const contact = section<ContactContribOptions>(input["contact"], "contact");
  if (contact) {
    const recipients = contact.recipients;
    if (
      !Array.isArray(recipients) ||
      recipients.length === 0 ||
      !recipients.every((r) => typeof r === "string" && EMAIL.test(r))
    ) {
      throw new E_CONTRIB_CONFIG("contrib.contact.recipients", "expected a non-empty list of email addresses");
    }
  }
  const maintenanceRaw = section<MaintenanceContribOptions>(input["maintenance"], "maintenance");
  const captcha = section<CaptchaContribOptions>(input["captcha"], "captcha");
  if (captcha?.testMode && config.env === "production") {
    throw new E_CONTRIB_CONFIG(
      "contrib.captcha.testMode",
      "test mode writes the answer into the page; it is refused in production",
    );
  }
  if (
    captcha?.verifier &&
    (typeof captcha.verifier.verify !== "function" || typeof captcha.verifier.challenge !== "function")
  ) {
    throw new E_CONTRIB_CONFIG(
      "contrib.captcha.verifier",
      "expected an object with challenge(ctx) and verify(ctx, body)",
    );
  }
  // `i18n` at the top is fw-a's name for the languages; fw-b reads it as `contrib.i18n` (give one).
  if (input["i18n"] !== undefined && config.i18n !== undefined) {
    throw new E_CONTRIB_CONFIG("i18n", "give the languages once: `i18n` or `contrib.i18n` (the same setting)");
  }
  const i18n = section<I18nContribOptions>(input["i18n"] ?? config.i18n, "i18n") ?? {};
  const oauth = section<OAuthContribOptions>(input["oauth"], "oauth");
  if (oauth) {
    if (!auth)
      throw new E_CONTRIB_CONFIG("contrib.oauth", "OAuth sign-in needs contrib.auth (the accounts it links to)");
    if (typeof oauth.providers !== "object" || oauth.providers === null || Object.keys(oauth.providers).length === 0) {
      throw new E_CONTRIB_CONFIG(
        "contrib.oauth.providers",
        'expected at least one provider: { google: { type: "google", clientId, clientSecret } }',
      );
    }
    for (const [name, provider] of Object.entries(oauth.providers)) {
      if (!/^[a-z][a-z0-9-]{0,31}$/.test(name))
        throw new E_CONTRIB_CONFIG(
          `contrib.oauth.providers.${name}`,
          "a provider name is lowercase letters, digits and -",
        );
      if (!["oidc", "google", "github", "oauth2"].includes(provider.type))
        throw new E_CONTRIB_CONFIG(`contrib.oauth.providers.${name}.type`, "expected oidc, google, github or oauth2");
      if (!provider.clientId || !provider.clientSecret)
        throw new E_CONTRIB_CONFIG(`contrib.oauth.providers.${name}`, "clientId and clientSecret are required");
      if (provider.type === "oidc" && !provider.issuer)
        throw new E_CONTRIB_CONFIG(
          `contrib.oauth.providers.${name}.issuer`,
          "an OpenID Connect provider needs its issuer URL",
        );
      if (
        provider.type === "oauth2" &&
        (!provider.authorizationEndpoint || !provider.tokenEndpoint || !provider.userinfoEndpoint)
      ) {
        throw new E_CONTRIB_CONFIG(
          `contrib.oauth.providers.${name}`,
          "an oauth2 provider needs authorizationEndpoint, tokenEndpoint and userinfoEndpoint",
        );
      }
      if (provider.allowInsecure && config.env === "production")
        throw new E_CONTRIB_CONFIG(`contrib.oauth.providers.${name}.allowInsecure`, "refused in production");
    }
  }
  const maintenance = maintenanceRaw
    ? Object.freeze({
        retryAfter: seconds(maintenanceRaw.retryAfter, "contrib.maintenance.retryAfter", 600),
        cacheMs: milliseconds(maintenanceRaw.cacheMs, "contrib.maintenance.cacheMs", 1000),
      })
    : undefined;
  return Object.freeze({
    ...(auth ? { auth } : {}),
    ...(adminRaw
      ? { admin: { title: typeof adminRaw.title === "string" && adminRaw.title ? adminRaw.title : "Admin" } }
      : {}),
    ...(contact ? { contact } : {}),
    errors: input["errors"] !== undefined && input["errors"] !== false,
    ...(maintenance ? { maintenance } : {}),
    ...(captcha ? { captcha } : {}),
    i18n,
    ...(oauth ? { oauth } : {}),
    usesDatabase: Boolean(auth || contact || maintenance),
  });
}
