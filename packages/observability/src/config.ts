/** The observability battery's config keys, for the start-up check of unknown keys (declared in config-schema.ts). */
import { observabilityConfigSchema } from "./config-schema.js";

/** The config keys the observability battery reads, for the host's start-up check of unknown keys. */
export const OBSERVABILITY_CONFIG_KEYS = observabilityConfigSchema.configKeys;
