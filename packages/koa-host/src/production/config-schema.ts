/**
 * The host's production keys (balancer, probes, shutdown, request id), declared once: their type on
 * `HostConfig`, the start-up check, the defaults, the reading of environment strings and their rows
 * of docs/configuration.md follow from it (settings.ts adds what joins two keys).
 */
import { E_PRODUCTION_CONFIG } from "../errors.js";
import { defineConfigSchema, type InputOf } from "../config-schema/schema.js";
import { key, type ReadContext } from "../config-schema/keys.js";
import { type TrustProxySetting, trustProxyOf } from "./trust-proxy.js";

function path(doc: string, fallback: string) {
  return key.custom<string | false>({
    doc,
    kind: "path or false",
    default: fallback,
    read: (value: unknown, context: ReadContext) => {
      if (value === false) return false;
      if (typeof value === "string" && /^\/[A-Za-z0-9._~/-]*$/.test(value) && !value.includes("//")) return value;
      return context.invalid(context.path, 'an absolute URL path such as "/healthz", or false to switch it off', value);
    },
  });
}

/** The host's production keys (documented in docs/deployment.md). */
export const productionConfigSchema = defineConfigSchema(
  {
    trustProxy: key.custom<boolean | number | string | readonly string[], TrustProxySetting>({
      doc: "Trust X-Forwarded-* from the balancer: false, the number of proxies in front, or their addresses and CIDR ranges (`true` is refused).",
      kind: "false, a number or addresses",
      default: false,
      env: "TRUST_PROXY",
      read: (value) => trustProxyOf(value),
    }),
    healthPath: path("Liveness path, or false to switch it off.", "/healthz"),
    readyPath: path("Readiness path, or false to switch it off.", "/readyz"),
    readyTimeout: key.number({
      doc: "Milliseconds each plugin's `ready()` may take.",
      default: 2000,
      above: 0,
      expected: "milliseconds, a number above 0",
    }),
    readyCache: key.number({
      doc: "Milliseconds readiness keeps each check's answer (0: every probe asks).",
      default: 1000,
      min: 0,
      expected: "milliseconds, a number from 0 (0: every probe asks the stores)",
    }),
    shutdownGrace: key.number({
      doc: "Seconds in-flight requests get at shutdown.",
      default: 10,
      above: 0,
      expected: "seconds, a number above 0",
    }),
    requestIdHeader: key.string({
      doc: "The request id header read from the client and echoed.",
      default: "X-Request-Id",
      pattern: /^[A-Za-z0-9-]+$/,
      expected: 'a header name such as "X-Request-Id"',
    }),
  },
  { invalid: (path, expected, value) => new E_PRODUCTION_CONFIG(path, expected, value) },
);

/** The production keys as an app writes them (part of `HostConfig`). */
export interface ProductionConfigInput extends InputOf<typeof productionConfigSchema> {}
