import type { Context } from "koa";
import type { Knex } from "@fwkit/data";
import { localeSlot, runtimeOf, type HostRuntime, type PluginContext } from "@fwkit/koa-host/plugin";
import { currentUser } from "@fwkit/security";
import type { Mailer } from "@fwkit/services";
import { LANGUAGE_SESSION_KEY } from "@fwkit/services/battery";
import { E_CONTRIB_NOT_SET_UP } from "../errors.js";
import type { CaptchaVerifier } from "./captcha/verifier.js";
import type { ContribSettings } from "./config.js";
import type { I18n, Translate } from "./i18n/i18n.js";
import type { MaintenanceFlag } from "./maintenance/flag.js";
import type { ContribModels, UserRow } from "./models.js";

/** One link of the admin area's menu. */
export interface AdminNavItem {
  readonly title: string;
  readonly url: string;
  /** A bootstrap-icons name (`people`, `envelope`...). */
  readonly icon: string;
}

/** The contrib modules of one app at run time: settings, models, translations and services. */
export interface ContribRuntime {
  readonly settings: ContribSettings;
  readonly models: ContribModels;
  readonly i18n: I18n;
  readonly captcha: CaptchaVerifier | undefined;
  readonly maintenance: MaintenanceFlag | undefined;
  /** The admin area's menu (contrib pages and the app's `@admin` classes), built at start-up. */
  readonly adminNav: readonly AdminNavItem[];
  /** Where login-required pages send visitors (security's `loginUrl`). */
  readonly loginUrl: string;
  readonly logger: PluginContext["logger"];
  /** The app's public address (config `baseUrl`), for absolute links; undefined: the server's own (never in production). */
  readonly baseUrl: string | undefined;
  /** The database (after start-up). */
  knex(): Knex;
  /** The mailer (after start-up; rejects when mail is not configured). */
  mailer(): Mailer;
  /** Hashes a password with the app's algorithm and cost. */
  hashPassword(password: string): Promise<string>;
}

// One lookup per app (not per request): the fw-b plugin among the host's plugins.
const runtimes = new WeakMap<HostRuntime, ContribRuntime | null>();

/** The contrib runtime of the app serving `ctx`, if the app has the fw-b plugin. */
function findContrib(ctx: Context): ContribRuntime | undefined {
  const host = runtimeOf(ctx) as HostRuntime | undefined;
  if (!host) return undefined;
  let found = runtimes.get(host);
  if (found === undefined) {
    const plugin = host.plugins.find((candidate) => candidate.name === "fw-b") as
      | { runtime?: ContribRuntime }
      | undefined;
    found = plugin?.runtime ?? null;
    runtimes.set(host, found);
  }
  return found ?? undefined;
}

/** The contrib runtime of the app serving `ctx`. */
export function contribOf(ctx: Context): ContribRuntime {
  const runtime = findContrib(ctx);
  if (!runtime) throw new E_CONTRIB_NOT_SET_UP("fw-b's contrib views");
  return runtime;
}

/** Which user the request's language (koa-host's `localeSlot`) was decided for (a login or logout in the request changes it). */
const localeUsers = new WeakMap<Context, unknown>();

/**
 * The language of this request: the logged-in user's (when it is one of the app's), else the one
 * chosen with the language switcher for this session, else the best match of `Accept-Language`,
 * else the fallback (services' chooseLanguage, as in fw-a). Decided on first use and kept for the
 * request, so requests that translate nothing (text, JSON, files) never negotiate; decided again
 * when the request logs a user in or out, so what is translated after (the welcome flash) is in the
 * language of the page it lands on.
 */
export function localeOf(ctx: Context): string | undefined {
  const known = localeSlot.get(ctx);
  const user = contribUser(ctx);
  if (typeof known === "string" && localeUsers.get(ctx) === user) return known;
  const runtime = findContrib(ctx);
  if (!runtime) return typeof known === "string" ? known : undefined;
  const { i18n } = runtime;
  const locale = i18n.choose({
    user: user?.locale,
    session: sessionLanguage(ctx),
    acceptLanguage: ctx.get("Accept-Language"),
  });
  localeSlot.set(ctx, locale);
  localeUsers.set(ctx, user);
  return locale;
}

/** The language kept in the session by the switcher; reading it never creates a session. */
function sessionLanguage(ctx: Context): unknown {
  try {
    return (ctx as Context & { session?: Record<string, unknown> | null }).session?.[LANGUAGE_SESSION_KEY];
  } catch {
    // No session middleware on this request (or its store is down): the other hints decide.
    return undefined;
  }
}

/** The translator of this request's language. */
export function translatorOf(ctx: Context): Translate {
  const runtime = findContrib(ctx);
  if (!runtime) return (key) => key;
  return runtime.i18n.translator(localeOf(ctx) ?? runtime.i18n.fallback);
}

/** The logged-in contrib user of this request, if any. */
export function contribUser(ctx: Context): UserRow | undefined {
  return currentUser<UserRow>(ctx);
}
