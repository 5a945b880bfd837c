/**
 * Reads the `contrib` config key once at start-up (its keys: config-schema.ts) and checks the
 * rules that join them: which modules are on, their dependencies (admin, contact's admin list and
 * OAuth need auth), roles that exist, and what production refuses.
 */
import type { AppConfig } from "@fwkit/koa-host";
import { fwbConfigSchema } from "../config-schema.js";
import { E_CONTRIB_CONFIG } from "../errors.js";
import { CONTRIB_KEYS, type ContribConfig, type ContribRead, type OAuthContribOptions } from "./config-schema.js";

export type {
  AuthContribOptions,
  CaptchaContribOptions,
  ContactContribOptions,
  ContribConfig,
  I18nContribOptions,
  MaintenanceContribOptions,
  OAuthContribOptions,
  OAuthProviderOptions,
} from "./config-schema.js";

/** The resolved auth options. */
export type AuthSettings = NonNullable<ContribRead["auth"]>;

/** The contrib modules an app enabled, with their options resolved. */
export interface ContribSettings {
  readonly auth?: AuthSettings;
  readonly admin?: { readonly title: string };
  readonly contact?: { readonly recipients: readonly string[] };
  readonly errors: boolean;
  readonly maintenance?: NonNullable<ContribRead["maintenance"]>;
  readonly captcha?: NonNullable<ContribRead["captcha"]>;
  readonly i18n: NonNullable<ContribRead["i18n"]> | Record<string, never>;
  readonly oauth?: OAuthContribOptions;
  /** True when any module that needs the database is on. */
  readonly usesDatabase: boolean;
}

function checkRoles(auth: AuthSettings): void {
  for (const [key, role] of [
    ["defaultRole", auth.defaultRole],
    ["adminRole", auth.adminRole],
  ] as const) {
    if (auth.roles[role] === undefined)
      throw new E_CONTRIB_CONFIG(
        `contrib.auth.${key}`,
        `${JSON.stringify(role)} is not one of the roles (${Object.keys(auth.roles).join(", ")})`,
      );
  }
}

function checkOAuth(oauth: OAuthContribOptions, config: AppConfig): void {
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

/**
 * Reads and checks the `contrib` config key once at start-up: which modules are on, their
 * options and their dependencies (admin, contact's admin list and OAuth need auth).
 */
export function contribSettings(config: AppConfig): ContribSettings {
  const given = (config["contrib"] ?? {}) as ContribConfig;
  // `i18n` at the top is fw-a's name for the languages; fw-b reads it as `contrib.i18n` (give one).
  if (typeof given === "object" && given.i18n !== undefined && config.i18n !== undefined) {
    throw new E_CONTRIB_CONFIG("i18n", "give the languages once: `i18n` or `contrib.i18n` (the same setting)");
  }
  const contrib =
    typeof given === "object" && given !== null && given.i18n === undefined && config.i18n !== undefined
      ? { ...given, i18n: config.i18n }
      : given;
  if (typeof contrib === "object" && contrib !== null)
    for (const name of Object.keys(contrib))
      if (!Object.hasOwn(CONTRIB_KEYS, name))
        throw new E_CONTRIB_CONFIG(
          `contrib.${name}`,
          `there is no such module; the modules are ${Object.keys(CONTRIB_KEYS).join(", ")}`,
        );
  const read = fwbConfigSchema.resolveKey("contrib", { contrib }, { env: {} });
  const { auth, admin, contact, maintenance, captcha, oauth } = read;
  if (auth) checkRoles(auth);
  if (admin && !auth)
    throw new E_CONTRIB_CONFIG("contrib.admin", "the admin area needs contrib.auth (its users and roles)");
  if (contact && (contact.recipients === undefined || contact.recipients.length === 0))
    throw new E_CONTRIB_CONFIG("contrib.contact.recipients", "expected a non-empty list of email addresses");
  if (captcha?.testMode && config.env === "production") {
    throw new E_CONTRIB_CONFIG(
      "contrib.captcha.testMode",
      "test mode writes the answer into the page; it is refused in production",
    );
  }
  if (oauth) {
    if (!auth)
      throw new E_CONTRIB_CONFIG("contrib.oauth", "OAuth sign-in needs contrib.auth (the accounts it links to)");
    checkOAuth(oauth as OAuthContribOptions, config);
  }
  return Object.freeze({
    ...(auth ? { auth } : {}),
    ...(admin ? { admin } : {}),
    ...(contact ? { contact: { recipients: contact.recipients ?? [] } } : {}),
    errors: read.errors,
    ...(maintenance ? { maintenance } : {}),
    ...(captcha ? { captcha } : {}),
    i18n: read.i18n ?? {},
    ...(oauth ? { oauth: oauth as OAuthContribOptions } : {}),
    usesDatabase: Boolean(auth || contact || maintenance),
  });
}
