/**
 * Starts the OpenTelemetry SDK for an app: a Node tracer provider (W3C trace context, the
 * AsyncLocalStorage context manager), its exporter (OTLP over HTTP by default, reading the standard
 * `OTEL_EXPORTER_OTLP_*` variables), and the maintained instrumentations that are installed
 * (ioredis for Redis commands, http for outgoing calls). The SDK packages are optional peers,
 * loaded here, only when tracing is on.
 */
import type * as Base from "@opentelemetry/sdk-trace-base";
import type * as Node from "@opentelemetry/sdk-trace-node";
import type * as Resources from "@opentelemetry/resources";
import type * as Instrumentation from "@opentelemetry/instrumentation";
import type { Logger } from "pino";
import { requireDriver } from "../drivers.js";
import { otelApi } from "./api.js";
import { PooledIdGenerator } from "./ids.js";
import type { TracingSettings } from "../settings.js";

/** The running SDK. */
export interface TracingSdk {
  /** Sends the spans still buffered and stops (the host's close). */
  close(): Promise<void>;
}

const USER = "Tracing (tracing.enabled or OTEL_* variables)";
let running: { readonly sdk: TracingSdk; users: number } | undefined;

function exporterOf(settings: TracingSettings, base: typeof Base): { processor: Base.SpanProcessor } | undefined {
  const { exporter } = settings;
  if (exporter === "none") return undefined;
  if (exporter === "console") return { processor: new base.SimpleSpanProcessor(new base.ConsoleSpanExporter()) };
  if (exporter === "otlp") {
    const { OTLPTraceExporter } = requireDriver<typeof import("@opentelemetry/exporter-trace-otlp-http")>(
      "@opentelemetry/exporter-trace-otlp-http",
      USER,
    );
    return { processor: new base.BatchSpanProcessor(new OTLPTraceExporter()) };
  }
  // An exporter object (tests: InMemorySpanExporter): each span as it ends.
  return { processor: new base.SimpleSpanProcessor(exporter as unknown as Base.SpanExporter) };
}

/** The instrumentations installed next to the app; each missing one is only a line in the log. */
function instrumentations(logger: Logger): Instrumentation.Instrumentation[] {
  const found: Instrumentation.Instrumentation[] = [];
  try {
    const { IORedisInstrumentation } = requireDriver<typeof import("@opentelemetry/instrumentation-ioredis")>(
      "@opentelemetry/instrumentation-ioredis",
      USER,
    );
    found.push(new IORedisInstrumentation());
  } catch {
    logger.debug("tracing: @opentelemetry/instrumentation-ioredis is not installed, so Redis commands have no spans");
  }
  try {
    const { HttpInstrumentation } = requireDriver<typeof import("@opentelemetry/instrumentation-http")>(
      "@opentelemetry/instrumentation-http",
      USER,
    );
    // Incoming requests get their span from this battery (named by route); only outgoing calls here.
    // Disabled, not ignored: an ignore hook still wraps the server's `emit` and, per request, opens a
    // context and patches the request's and response's listener methods (a few microseconds each).
    found.push(new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }));
  } catch {
    logger.debug("tracing: @opentelemetry/instrumentation-http is not installed, so outgoing HTTP calls have no spans");
  }
  return found;
}

/**
 * Starts the SDK, once per process: the OpenTelemetry API is global, so a second app in the same
 * process (a mounted app, tests) shares the first one's provider until every user closed it.
 */
export function startTracing(settings: TracingSettings, logger: Logger): TracingSdk {
  if (running) {
    running.users++;
    return release(running);
  }
  const base = requireDriver<typeof Base>("@opentelemetry/sdk-trace-base", USER);
  const { NodeTracerProvider } = requireDriver<typeof Node>("@opentelemetry/sdk-trace-node", USER);
  const resources = requireDriver<typeof Resources>("@opentelemetry/resources", USER);
  const exported = exporterOf(settings, base);
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": settings.serviceName }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: exported ? [exported.processor] : [],
    idGenerator: new PooledIdGenerator(),
  });
  provider.register();
  let unregister: () => void = () => undefined;
  const found = instrumentations(logger);
  if (found.length > 0) {
    const { registerInstrumentations } = requireDriver<typeof Instrumentation>("@opentelemetry/instrumentation", USER);
    unregister = registerInstrumentations({ instrumentations: found, tracerProvider: provider });
  }
  const sdk: TracingSdk = {
    async close() {
      unregister();
      await provider.shutdown();
      // Leaves the API as it was, so the next app of this process may start its own SDK.
      otelApi().trace.disable();
      otelApi().context.disable();
      otelApi().propagation.disable();
      running = undefined;
    },
  };
  running = { sdk, users: 1 };
  return release(running);
}

function release(entry: { readonly sdk: TracingSdk; users: number }): TracingSdk {
  let closed = false;
  return {
    async close() {
      if (closed) return;
      closed = true;
      entry.users--;
      if (entry.users === 0) await entry.sdk.close();
    },
  };
}
