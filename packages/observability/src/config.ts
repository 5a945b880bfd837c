/**
 * The observability battery's config keys, declared for the start-up check of unknown keys (the
 * typed shape is in config-types.ts; a compile-time check keeps the two equal).
 */
export const OBSERVABILITY_CONFIG_KEYS = Object.freeze({
  metrics: Object.freeze({
    enabled: true,
    path: true,
    port: true,
    workerPort: true,
    host: true,
    token: true,
    prefix: true,
    labels: true,
    buckets: true,
    processMetrics: true,
  }),
  tracing: Object.freeze({ enabled: true, exporter: true, serviceName: true }),
  logContext: true,
});
