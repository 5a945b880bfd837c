/**
 * The services battery's config keys (and the translations plugin's `i18n`), declared once: the
 * app-facing types (`ServicesAppConfig`, `I18nAppConfig`, added to `AppConfig` of `@fwkit/koa-host`
 * by module augmentation), the start-up check of unknown keys, the defaults, the reading of
 * environment strings and the rows of docs/configuration.md follow from them. `mailUrl`, `mailFrom`,
 * `storageUrl`, `cacheUrl`, `redisUrl` and `static` are the host's keys: read here, typed there.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import { isPlainObject } from "@fwkit/koa-host/plugin";
import { defineConfigSchema, type InputOf, key } from "@fwkit/koa-host/config-schema";
import type { BundleDeclarations } from "./assets/bundle.js";
import { E_SERVICES_CONFIG_INVALID } from "./errors.js";

const invalid = (path: string, expected: string) => new E_SERVICES_CONFIG_INVALID(path, expected);

/** The services battery's keys. */
export const servicesConfigSchema = defineConfigSchema(
  {
    mailUrl: key.string({ doc: "Where mail goes (`smtp://`, `log:`, `memory:`...); unset: no mailer." }),
    mailFrom: key.string({ doc: "The default sender." }),
    storageUrl: key.string({
      doc: "Where uploads are stored (`file:`, `s3://`...).",
      defaultText: "`file:data/uploads`",
    }),
    storage: key.block(
      {
        publicPath: key.string({ doc: "URL prefix of public files.", default: "/uploads" }),
        maxBytes: key.number({ doc: "Largest upload, in bytes.", min: 0, expected: "a number of 0 or more" }),
        allowedTypes: key.list({ doc: "Accepted MIME types of uploads." }),
      },
      { doc: "Uploads." },
    ),
    cacheUrl: key.string({ doc: "The cache (`memory://`, `redis://`).", defaultText: "`memory://`" }),
    cache: key.block(
      { sessionCookie: key.string({ doc: "Requests carrying this cookie are never served from the response cache." }) },
      { doc: "The response cache." },
    ),
    sessionCookie: key.string({ doc: "Name of the session cookie (the response cache skips requests carrying it)." }),
    signalsUrl: key.string({ doc: "The Redis that carries signals across processes.", defaultText: "`redisUrl`" }),
    redisUrl: key.string({ doc: "Redis shared by the batteries (signals when `signalsUrl` is unset)." }),
    signals: key.block(
      {
        names: key.list({ doc: "The signals that cross processes.", default: [] }),
        prefix: key.string({ doc: "Channel prefix of the signals." }),
      },
      { doc: "Signals." },
    ),
    static: key.block(
      {
        dir: key.string({ doc: "Folder of static files.", default: "static" }),
        prefix: key.string({ doc: "URL prefix of static files.", default: "/static" }),
        maxAge: key.number({
          doc: "`max-age` of static files, in seconds.",
          min: 0,
          expected: "a number of 0 or more",
        }),
      },
      { doc: "Static files." },
    ),
    assets: key.block(
      {
        maxAge: key.number({
          doc: "`max-age` of hashed assets, in seconds.",
          min: 0,
          expected: "a number of 0 or more",
          defaultText: "`static.maxAge`, else `60`",
        }),
        bundles: key.custom<BundleDeclarations>({
          doc: 'Bundles: `"app.js": ["src/a.js"]` (the names are the app\'s own).',
          kind: "object of bundles",
          default: {},
          defaultText: "`{}`",
          read: (value, context) =>
            isPlainObject(value) ? (value as BundleDeclarations) : context.invalid(context.path, "an object", value),
        }),
        outDir: key.string({ doc: "Output folder of the bundles." }),
      },
      { doc: "Hashed static assets." },
    ),
  },
  { invalid },
);

/** The translations plugin's key (fw-a turns the plugin on; see docs/services.md). */
export const i18nConfigSchema = defineConfigSchema(
  {
    i18n: key.block(
      {
        languages: key.list({ doc: "Languages offered.", expected: 'a list of language tags, e.g. ["en", "fr"]' }),
        fallback: key.string({
          doc: "The language used when nothing else matches.",
          expected: 'a language tag, e.g. "en"',
        }),
      },
      { doc: "Translations." },
    ),
  },
  { invalid },
);

/** The keys of the host that services read: typed by the host, not again here. */
type HostKeys = "mailUrl" | "mailFrom" | "storageUrl" | "cacheUrl" | "redisUrl" | "static";

/** The config keys the services battery reads, as an app writes them (see docs/services.md). */
export interface ServicesAppConfig extends Omit<InputOf<typeof servicesConfigSchema>, HostKeys> {}

/** The translations plugin's key, as an app writes it. */
export interface I18nAppConfig extends InputOf<typeof i18nConfigSchema> {}

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends ServicesAppConfig, I18nAppConfig {}
}
