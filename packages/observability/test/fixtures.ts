// A small app for the battery's tests: koa-host with a template responder (through the kit's result
// table, so renders are reported like a framework's), the observability plugin and a test logger.
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type { AppConfig, Host } from "@fwkit/koa-host";
import { createHost, HostView } from "@fwkit/koa-host/plugin";
import { prepareResult, sendHtmlError, sendJsonError, wantsJsonError, type HostPlugin } from "@fwkit/koa-host/plugin";
import { pino, type Logger } from "pino";
import { defineConventions, type ViewModule } from "routing-kernel";
import { observabilityPlugin, type ObservabilityPlugin } from "../src/index.js";

/** A view base for the tests. */
export class TestView extends HostView {}

const conventions = defineConventions({ baseClass: TestView, trailingSlash: false });

/** Log lines written through a test logger, parsed. */
export interface LogCapture {
  readonly lines: Array<Record<string, unknown>>;
  /** The same lines as written. */
  readonly raw: string[];
  readonly logger: (fields?: () => Record<string, unknown>) => Logger;
}

/** A logger whose lines land in `lines` (the app's own logger writes to fd 1, which a test cannot read). */
export function captureLogs(): LogCapture {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) {
        if (!line.trim()) continue;
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, raw, logger: (fields) => pino({ level: "info", ...(fields ? { mixin: fields } : {}) }, stream) };
}

/** A started app with the observability plugin. */
export interface TestApp {
  readonly host: Host;
  readonly url: string;
  readonly plugin: ObservabilityPlugin;
  /** The metrics port's base URL, when metrics have one. */
  readonly metricsUrl: string | undefined;
}

/** Starts an app over `classes` with `config` (and extra plugins after the observability one). */
export async function startApp(
  classes: Record<string, unknown>,
  config: Record<string, unknown>,
  options: { logs?: LogCapture; plugins?: HostPlugin[] } = {},
): Promise<TestApp> {
  const modules: ViewModule[] = [{ name: "main", exports: classes }];
  let plugin: ObservabilityPlugin | undefined;
  // The test logger gets the plugin's log fields as the host's own logger would (bound once it exists).
  let fields: ((...args: unknown[]) => Record<string, unknown>) | undefined;
  const host = await createHost({
    root: new URL("./app", import.meta.url).pathname,
    conventions,
    modules,
    config: { env: "test", logRequests: options.logs !== undefined, logLevel: "info", ...config },
    plugins: (resolved: AppConfig) => {
      plugin = observabilityPlugin({ config: resolved });
      fields = plugin.logFields?.() as typeof fields;
      return [plugin, ...(options.plugins ?? [])];
    },
    ...(options.logs
      ? {
          logger: options.logs.logger(function (this: unknown, ...args: unknown[]) {
            return fields?.apply(this, args) ?? {};
          }),
        }
      : {}),
    responder: () => ({
      prepare: (route) =>
        prepareResult({
          kind: "html",
          handler: `${route.id}()`,
          template: (ctx, values) => void (ctx.body = `<p>${JSON.stringify(values)}</p>`),
        }),
      renderError: (ctx, info) =>
        wantsJsonError(ctx, info.route) ? sendJsonError(ctx, info) : sendHtmlError(ctx, info),
      describe: () => "html",
    }),
  });
  const server = await host.listen(0, "127.0.0.1");
  const address = plugin!.metricsAddress();
  return {
    host,
    plugin: plugin!,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    metricsUrl: address ? `http://${address.replace(/^0\.0\.0\.0/, "127.0.0.1")}` : undefined,
  };
}
