/**
 * The host's own config keys, declared once: their type (`HostConfig`, config.ts), what the
 * start-up check of unknown keys accepts (`HOST_CONFIG_KEYS`), which environment variables set
 * which key (`ENV_KEYS`), the defaults every app starts from (`defaultConfig`) and the host's rows
 * of docs/configuration.md follow from it. A package adding host keys adds them here; a battery
 * declares its own in its schema. The keys environment variables set for a battery
 * (`SESSION_URL` -> `sessionUrl`) are here because the host reads the variables.
 */
import { E_PRODUCTION_CONFIG } from "./errors.js";
import { key } from "./config-schema/keys.js";
import { defineConfigSchema } from "./config-schema/schema.js";
import { productionConfigSchema } from "./production/config-schema.js";

/** A key the host sets or reads as a whole (its value is of type `T`, taken as given). */
const given = <T>(kind: string, doc: string, options: { readonly defaultText?: string } = {}) =>
  key.custom<T>({ kind, doc, ...options, read: (value) => value as T });

const size = (doc: string) =>
  key.custom<string | number>({
    kind: 'bytes, or a size such as `"1mb"`',
    doc,
    default: "1mb",
    read: (value) => value as string | number,
  });

/** The secret key of development and test: never accepted in production. */
export const DEVELOPMENT_SECRET = "insecure-development-secret-key-change-me";

/** The app's environment as a default function sees it. */
const envOf = (config: Readonly<Record<string, unknown>>): unknown => config["env"];

/** Where an environment variable sets a key read by a battery: the doc says which battery. */
const url = (variable: string, doc: string, defaultText?: string) =>
  key.string({ doc, env: variable, ...(defaultText ? { defaultText } : {}) });

/** The host's keys. */
export const hostConfigSchema = defineConfigSchema(
  {
    env: given<string>(
      "string",
      "`development`, `test`, `production` or one the app's `environments` declares (`APP_ENV`).",
      { defaultText: '`"development"`' },
    ),
    root: given<string>("path", "The app's root folder (set by the host)."),
    appDir: given<string | undefined>(
      "path",
      "The app folder relative paths resolve against (set by the host; a build's is the one it was built from).",
    ),
    secretKey: key.string({
      doc: "Signs cookies and tokens; required in production.",
      env: "SECRET_KEY",
      secret: true,
      // Production has none: loadConfig refuses to start without one.
      default: (config) => (envOf(config) === "production" ? "" : DEVELOPMENT_SECRET),
    }),
    logLevel: key.string({
      doc: "pino level.",
      env: "LOG_LEVEL",
      defaultText: "`debug` in development, `warn` in test, else `info`",
      default: (config) => {
        const env = envOf(config);
        return env === "development" ? "debug" : env === "test" ? "warn" : "info";
      },
    }),
    logRequests: key.bool({ doc: "Log one line per request (at level info).", default: true }),
    logTime: key.oneOf(["iso", "epoch"], { doc: "How log lines write their time.", default: "iso" }),
    bodyLimits: key.block(
      {
        json: size("Largest JSON body."),
        form: size("Largest form body."),
        text: size("Largest text body."),
        fileSize: key.int({ doc: "Largest uploaded file, in bytes.", default: 10 * 1024 * 1024, min: 0 }),
      },
      { doc: "Body parser limits." },
    ),
    static: key.block(
      {
        dir: key.string({ doc: "Static files' folder under the root.", default: "static" }),
        prefix: key.string({ doc: "Their URL prefix.", default: "/static" }),
        maxAge: key.int({
          doc: "Their `max-age` in seconds.",
          defaultText: "3600 in production, else 0",
          default: (config) => (envOf(config) === "production" ? 3600 : 0),
          min: 0,
        }),
      },
      { doc: "Static files." },
    ),
    basePath: key.string({ doc: "A URL prefix the whole app lives under (multi-application)." }),
    baseUrl: key.string({
      doc: "The app's public address: every absolute link in a mail is built from it, never from the request's Host.",
      env: "BASE_URL",
    }),
    devTools: key.block(
      {
        remote: key.bool({
          doc: "Open the development tools (`/_mail`, the jobs dashboard, the OpenAPI page) to other machines.",
          default: false,
        }),
      },
      { doc: "The development tools." },
    ),
    ...productionConfigSchema.shape,
    appName: key.string({ doc: "The app's display name (scaffolds, layouts, mail)." }),
    appKeys: key.list({ doc: "Config keys the app reads itself, so the start-up check accepts them." }),
    environments: given<unknown>("sections by environment", "Per-environment overrides: `{ production: { ... } }`."),
    dbUrl: url("DB_URL", "The database URL (the data battery)."),
    sessionUrl: url("SESSION_URL", "Where sessions live (the security battery)."),
    cacheUrl: url("CACHE_URL", "The cache (the services battery)."),
    mailUrl: url("MAIL_URL", "The mailer (the services battery)."),
    storageUrl: url("STORAGE_URL", "File storage (the services battery)."),
    redisUrl: url("REDIS_URL", "Redis for signals and more."),
    queueUrl: url("QUEUE_URL", "The job queue (the jobs battery): `redis://...`, `memory:` or `sync:`."),
    realtimeUrl: url("REALTIME_URL", "Realtime channels' backend (the realtime battery): `memory:` or `redis://...`."),
    mailFrom: url("MAIL_FROM", "The default sender of mail."),
    timezone: url("TIMEZONE", "IANA time zone dates are shown in."),
  },
  { invalid: (path, expected, value) => new E_PRODUCTION_CONFIG(path, expected, value) },
);

/** Environment variables that set config keys (the twelve-factor way), from the keys' `env`. */
export const HOST_ENV_KEYS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    Object.entries(hostConfigSchema.shape).flatMap(([name, spec]) =>
      spec.env === undefined ? [] : [[spec.env, name] as const],
    ),
  ),
);
