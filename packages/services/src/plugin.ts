import type { Context, Middleware } from "koa";
import { E_NOT_READY, loopbackOnly, type HostPlugin, type PluginContext } from "@fwkit/koa-host/plugin";
import type { Route } from "routing-kernel";
import { createCache } from "./cache/cache.js";
import { cacheTagOf } from "./cache/decorator.js";
import { readServicesConfig, SERVICES_CONFIG_KEYS, type ServicesConfig } from "./config.js";
import { E_SERVICE_NOT_CONFIGURED } from "./errors.js";
import type { ServiceLogger } from "./logger.js";
import { join } from "node:path";
import type { Mailer } from "./mail/mailer.js";
import type { MailTransport } from "./mail/transport.js";
import type { MailRenderer } from "./mail/templates.js";
import type { SignalBridge } from "./signals/bridge.js";
import { defaultRegistry, type SignalRegistry } from "./signals/signal.js";
import { servicesSlot, type Services } from "./services-slot.js";

export { servicesSlot, type Services } from "./services-slot.js";

/** What the plugin builds and serves with, loaded by its `setup` (see plugin-parts.ts). */
type Parts = typeof import("./plugin-parts.js");

/** Options of {@link servicesPlugin}, given by the framework. */
export interface ServicesPluginOptions {
  /** Builds the mail template renderer (Nunjucks in fw-a, Pug in fw-b) once the config is known. */
  readonly mailRenderer?: (context: PluginContext) => MailRenderer;
  /** The signal registry (default: the process-wide one, so `signal(name)` anywhere reaches it). */
  readonly signals?: SignalRegistry;
}

/** The services battery as a host plugin; `services` is available after `setup`. */
export interface ServicesPlugin extends HostPlugin {
  readonly services: Services;
}

/** Where the development catcher keeps caught mails, in the app folder: the app's processes share them. */
const CAUGHT_MAIL_DIR = join(".fwkit", "mail");

/**
 * The mailer's transport: in development `log:` keeps its caught mails in the app folder (the
 * newest few), so `/_mail` lists those a job worker sent and those of before a restart.
 */
function mailTransportOf(config: ServicesConfig, { LogTransport }: Parts): string | MailTransport {
  const url = config.mailUrl ?? "";
  if (config.env !== "development" || !/^log:/i.test(url.trim())) return url;
  return new LogTransport(new URL(url.trim()), undefined, { dir: join(config.appDir, CAUGHT_MAIL_DIR) });
}

function unconfiguredMailer(): Mailer {
  const fail = () =>
    new E_SERVICE_NOT_CONFIGURED(
      "mailer",
      "set mailUrl (MAIL_URL) and mailFrom (MAIL_FROM) in config, and give the services plugin a mail renderer",
    );
  return {
    get transport(): never {
      throw fail();
    },
    sendMail: () => Promise.reject(fail()),
    compose: () => Promise.reject(fail()),
    deliver: () => Promise.reject(fail()),
    verify: () => Promise.reject(fail()),
    close: () => {},
  };
}

/**
 * The services as one host plugin. `setup` builds the cache, signal bridge, storage, mailer and
 * asset manifest (with bundles) from config; its `request` phase sends the request signals and serves
 * hashed assets and local files (and, in development, the mail previews at `/_mail`); its `route` phase applies `cacheResponse`; `locals` gives
 * templates `static(path)`; `close` releases Redis and other connections.
 */
export function servicesPlugin(options: ServicesPluginOptions = {}): ServicesPlugin {
  const signals = options.signals ?? defaultRegistry();
  let built: Services | undefined;
  let logger: ServiceLogger = signals.logger;
  let templateLocals: Record<string, unknown> = {};
  // The app's own config: who the development tools answer (devTools.remote) is a host key.
  let appConfig: object = {};
  // Loaded once by setup: the battery's modules an app that switches it off never needs.
  let parts: Parts | undefined;

  const services = (): Services => {
    if (!built) throw new E_SERVICE_NOT_CONFIGURED("services", "the services plugin's setup has not run yet");
    return built;
  };

  return {
    name: "services",
    configKeys: SERVICES_CONFIG_KEYS,
    get services() {
      return services();
    },

    async setup(context) {
      const config = readServicesConfig(context.config);
      const loaded = (parts ??= await import("./plugin-parts.js"));
      const { bridgeSignals, createMailer, createStorage, prepareAssets } = loaded;
      appConfig = context.config;
      logger = context.logger;
      signals.logger = context.logger;
      const opened: Array<() => unknown> = [];
      try {
        const cache = await createCache(config.cacheUrl, { logger });
        opened.push(() => cache.close());
        let bridge: SignalBridge | undefined;
        if (config.signalsUrl && config.signals.names.length > 0) {
          bridge = await bridgeSignals({
            url: config.signalsUrl,
            names: config.signals.names,
            registry: signals,
            logger,
            ...(config.signals.prefix ? { prefix: config.signals.prefix } : {}),
          });
          const open = bridge;
          opened.push(() => open.close());
        }
        const storage = createStorage({
          ...(config.storageUrl ? { url: config.storageUrl } : {}),
          // Uploads on local disk live in the app folder, not in a build that the next release replaces.
          root: config.appDir,
          secret: config.secretKey,
          publicPath: context.basePath + config.storage.publicPath,
          limits: {
            ...(config.storage.maxBytes === undefined ? {} : { maxBytes: config.storage.maxBytes }),
            ...(config.storage.allowedTypes === undefined ? {} : { allowedTypes: config.storage.allowedTypes }),
          },
          signals,
          logger,
        });
        opened.push(() => storage.close());
        const mailer =
          config.mailUrl && config.mailFrom && options.mailRenderer
            ? createMailer({
                url: mailTransportOf(config, loaded),
                from: config.mailFrom,
                render: options.mailRenderer(context),
                logger,
                signals,
              })
            : unconfiguredMailer();
        opened.push(() => mailer.close());
        const assets = await prepareAssets({
          root: config.root,
          development: config.env === "development",
          config: {
            dir: config.assets.dir,
            prefix: context.basePath + config.assets.prefix,
            bundles: config.assets.bundles,
            ...(config.assets.outDir ? { outDir: config.assets.outDir } : {}),
          },
        });
        built = { mailer, storage, cache, assets, signals, config, ...(bridge ? { bridge } : {}) };
        // Receivers reach the app's services as meta.services.
        signals.services = built;
        templateLocals = { static: (path: string) => assets.assetUrl(path) };
      } catch (error) {
        for (const close of opened.reverse()) await close();
        throw error;
      }
    },

    devTools: () =>
      built?.config.env === "development" && parts
        ? [`${parts.MAIL_PREVIEW_PATH} (mail previews and caught mails)`]
        : [],

    phases: {
      request(): Middleware[] {
        const { assets, storage, config, mailer } = services();
        const { MAIL_PREVIEW_PATH, mailPreviewMiddleware, requestSignals, serveAssets, serveStorage } = parts!;
        const state: Middleware = (ctx, next) => {
          servicesSlot.set(ctx, built);
          return next();
        };
        const served = [
          requestSignals(signals),
          state,
          serveAssets(assets, { maxAge: config.assets.maxAge }),
          serveStorage(storage),
        ];
        // The mail previews show templates and caught mails (live links): a development tool for this
        // machine only (devTools.remote opens it), absent elsewhere (404).
        if (config.env === "development")
          served.push(loopbackOnly(MAIL_PREVIEW_PATH, appConfig, mailPreviewMiddleware({ root: config.root, mailer })));
        return served;
      },

      route(route: Route): Middleware | undefined {
        const tag = cacheTagOf(route);
        if (!tag || !route.verbs.includes("GET")) return undefined;
        const { cache, config } = services();
        return parts!.responseCache(cache, { seconds: tag.seconds, sessionCookie: config.sessionCookie, logger });
      },
    },

    locals(_ctx: Context) {
      return templateLocals;
    },

    // Readiness (/readyz): the cache's backend answers (memory:// always does; a read cannot tell,
    // since a failed read is a miss). Not required: pages are still served without their cached copy.
    readiness: () => [
      {
        name: "cache",
        required: false,
        async check() {
          try {
            const { store } = services().cache;
            if (store.check) await store.check();
            else await services().cache.get("fw-readyz-probe");
          } catch (error) {
            throw new E_NOT_READY("the cache", (error as Error).message);
          }
        },
      },
    ],

    async close() {
      if (!built) return;
      const { bridge, cache, storage, mailer } = built;
      built = undefined;
      await bridge?.close();
      await cache.close();
      storage.close();
      mailer.close();
    },
  };
}
