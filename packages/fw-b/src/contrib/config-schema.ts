/**
 * The `contrib` block's keys, declared once: the app-facing types (`ContribConfig` and one per
 * module), the resolved settings, the start-up check of unknown keys, the defaults, the reading of
 * environment strings and the rows of docs/configuration.md follow from it. A module is switched on
 * with `true` (its defaults) or its block; config.ts adds the rules that join modules.
 */
import { type InputOfShape, key, type ResolvedOfShape } from "@fwkit/koa-host/config-schema";
import type { CaptchaVerifier } from "./captcha/verifier.js";
import { DEFAULT_ROLES } from "./roles.js";

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

/** `contrib.auth`: the login, signup, password and account pages. */
export const AUTH_KEYS = Object.freeze({
  requireVerification: key.bool({
    doc: "Refuse to log in until the email address is confirmed (else a link is mailed anyway).",
    default: false,
  }),
  resetTokenTtl: key.int({ doc: "Seconds a password-reset link works (one hour).", default: 3600, min: 1 }),
  verifyTokenTtl: key.int({ doc: "Seconds an email-confirmation link works (two days).", default: 2 * 86400, min: 1 }),
  signup: key.bool({ doc: "Let visitors create accounts.", default: true }),
  roles: key.custom<Readonly<Record<string, number>>>({
    doc: "Role names and their levels.",
    kind: "role name -> level",
    default: DEFAULT_ROLES,
    defaultText: "member 10, editor 20, admin 30, superadmin 40",
    read: (value, context) => {
      if (typeof value !== "object" || value === null || Array.isArray(value))
        return context.invalid(context.path, "an object of role names and numeric levels", value);
      for (const [name, level] of Object.entries(value))
        if (!/^[a-z][a-z0-9_-]{0,31}$/.test(name) || typeof level !== "number" || !Number.isFinite(level))
          return context.invalid(
            context.path,
            `lowercase role names and numeric levels (role ${JSON.stringify(name)})`,
            value,
          );
      return Object.freeze({ ...(value as Record<string, number>) });
    },
  }),
  defaultRole: key.string({ doc: "The role of new accounts.", default: "member" }),
  adminRole: key.string({ doc: "The lowest role that reaches the admin area.", default: "admin" }),
  afterLogin: key.string({
    doc: "Where to go after logging in when no `next` was asked for.",
    default: "/",
    pattern: /^\/(?!\/)/,
    expected: "a path on this site, such as /",
  }),
});

/** `contrib.maintenance`: the maintenance switch. */
export const MAINTENANCE_KEYS = Object.freeze({
  retryAfter: key.int({ doc: "Seconds sent in `Retry-After`.", default: 600, min: 1 }),
  cacheMs: key.int({ doc: "How long a process trusts the flag it read, in milliseconds.", default: 1000, min: 0 }),
});

/** `contrib.captcha`: the captcha of signup, contact and lost password. */
export const CAPTCHA_KEYS = Object.freeze({
  verifier: key.custom<CaptchaVerifier>({
    doc: "A hosted service's verifier instead of the built-in SVG captcha.",
    kind: "{ challenge(ctx), verify(ctx, body) }",
    read: (value, context) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as CaptchaVerifier).verify === "function" &&
      typeof (value as CaptchaVerifier).challenge === "function"
        ? (value as CaptchaVerifier)
        : context.invalid(context.path, "an object with challenge(ctx) and verify(ctx, body)", value),
  }),
  size: key.int({ doc: "Characters in the built-in captcha (5).", min: 1 }),
  testMode: key.bool({ doc: "Write the answer in the page as `data-test-answer` (refused in production)." }),
  onChallenge: key.custom<(answer: string) => void>({
    doc: "Called with each new answer of the built-in captcha (tests read it here).",
    kind: "function",
    read: (value, context) =>
      typeof value === "function"
        ? (value as (answer: string) => void)
        : context.invalid(context.path, "a function", value),
  }),
});

/** `contrib.i18n` (or `i18n`): languages of the contrib pages and messages. */
export const I18N_KEYS = Object.freeze({
  languages: key.list({
    doc: "Languages offered (default: English and those of `resources` and `locales/*.json`).",
    nonEmpty: true,
  }),
  fallback: key.string({ doc: "The language when nothing else matches (`en`)." }),
  resources: key.custom<Readonly<Record<string, Readonly<Record<string, string>>>>>({
    doc: 'Extra translations: `{ fr: { "auth.login.title": "Connexion" } }`.',
    kind: "language -> key -> text",
    read: (value, context) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Readonly<Record<string, Readonly<Record<string, string>>>>)
        : context.invalid(context.path, "an object of languages", value),
  }),
});

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

/** `contrib.oauth`: sign in with other providers (each provider is checked in config.ts). */
export const OAUTH_KEYS = Object.freeze({
  providers: key.custom<Readonly<Record<string, OAuthProviderOptions>>>({
    doc: 'The providers by name: `{ google: { type: "google", clientId, clientSecret } }`.',
    kind: "name -> provider",
    secret: true,
    read: (value) => value as Readonly<Record<string, OAuthProviderOptions>>,
  }),
  signup: key.bool({ doc: "Create an account for a new verified email address.", default: true }),
});

/** The `contrib` block: one entry per module, `true` for its defaults. */
export const CONTRIB_KEYS = Object.freeze({
  auth: key.section(AUTH_KEYS, { doc: "The login, signup, password and account pages." }),
  admin: key.section(
    { title: key.string({ doc: "The admin area's title.", default: "Admin" }) },
    { doc: "The admin area (needs `auth`)." },
  ),
  contact: key.section(
    {
      recipients: key.list({
        doc: "Who receives the messages (one address or more).",
        item: EMAIL,
        expected: "a non-empty list of email addresses",
      }),
    },
    { doc: "The contact form." },
  ),
  errors: key.bool({ doc: "fw-b's error pages.", default: false }),
  maintenance: key.section(MAINTENANCE_KEYS, { doc: "The maintenance switch." }),
  captcha: key.section(CAPTCHA_KEYS, { doc: "The captcha of signup, contact and lost password." }),
  i18n: key.section(I18N_KEYS, {
    doc: "Languages of the contrib pages and messages (the same setting as `i18n`; give one).",
  }),
  oauth: key.section(OAUTH_KEYS, { doc: "Sign in with other providers (needs `auth`)." }),
});

/** `contrib.auth` as an app writes it. */
export type AuthContribOptions = InputOfShape<typeof AUTH_KEYS>;
/** `contrib.contact` as an app writes it. */
export type ContactContribOptions = { readonly recipients: readonly string[] };
/** `contrib.maintenance` as an app writes it. */
export type MaintenanceContribOptions = InputOfShape<typeof MAINTENANCE_KEYS>;
/** `contrib.captcha` as an app writes it. */
export type CaptchaContribOptions = InputOfShape<typeof CAPTCHA_KEYS>;
/** `contrib.i18n` as an app writes it. */
export type I18nContribOptions = InputOfShape<typeof I18N_KEYS>;
/** `contrib.oauth` as an app writes it. */
export type OAuthContribOptions = InputOfShape<typeof OAUTH_KEYS> & {
  readonly providers: Readonly<Record<string, OAuthProviderOptions>>;
};

/** The `contrib` config key as an app writes it: one entry per module, `true` for its defaults. */
export type ContribConfig = Omit<InputOfShape<typeof CONTRIB_KEYS>, "contact" | "oauth"> & {
  readonly contact?: ContactContribOptions;
  readonly oauth?: OAuthContribOptions;
};

/** The `contrib` block as read, module by module (`undefined`: off). */
export type ContribRead = ResolvedOfShape<typeof CONTRIB_KEYS>;
