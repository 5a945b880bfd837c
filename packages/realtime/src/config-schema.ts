/**
 * The realtime battery's config keys, declared once: the app-facing type (`RealtimeAppConfig`,
 * added to `AppConfig` of `@fwkit/koa-host` by module augmentation), the start-up check of unknown
 * keys, the defaults, the reading of environment strings and the rows of docs/configuration.md
 * follow from it. `realtimeUrl` (`REALTIME_URL`) is the host's key, typed there; config.ts adds the
 * rules that join keys (the URL, the channels).
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import { defineConfigSchema, type InputOf, key } from "@fwkit/koa-host/config-schema";
import type { ChannelDefinition } from "./channels.js";
import { E_REALTIME_OPTION_INVALID } from "./errors.js";

/** A duration: milliseconds, or a string such as `"15s"`, `"5m"`, `"1h"`, `"500ms"`. */
export type Duration = number | `${number}${"ms" | "s" | "m" | "h" | "d"}`;

/** A duration key (zero refused: a heartbeat or a window needs a length). */
function duration(doc: string, fallback: Duration) {
  return key.duration({ doc, default: fallback, min: 1 });
}

/** The keys of the `realtime` block. */
export const REALTIME_BLOCK_KEYS = Object.freeze({
  channels: key.custom<
    // biome-ignore lint/suspicious/noExplicitAny: a channel's authorize sees the app's own user type
    Readonly<Record<string, ChannelDefinition<any>>>,
    unknown
  >({
    doc: 'The channels clients may subscribe to, by pattern: `{ "news": { public: true }, "orders/:id": { authorize } }`; none: the battery stays off.',
    kind: "channels by pattern",
    // Checked by compileChannels (config.ts): its keys are the app's patterns.
    read: (value) => value,
  }),
  path: key.string({
    doc: "Where the event stream is served.",
    default: "/_events",
    pattern: /^\/[A-Za-z0-9_./-]*$/,
    expected: "a path such as /_events",
  }),
  prefix: key.string({
    doc: 'Prefix of the Redis keys (default `"fwkit-<name>"`, from the app\'s package.json).',
    pattern: /^[A-Za-z0-9_.:-]{1,50}$/,
    expected: "letters, digits and _ . : - (at most 50)",
  }),
  replay: key.block(
    {
      size: key.int({ doc: "Messages kept per channel for a reconnecting client.", default: 1000, min: 1 }),
      age: duration("How long they are kept.", "5m"),
    },
    { doc: "The window a reconnecting client resumes from." },
  ),
  heartbeat: duration("How often an idle stream gets a comment line, so proxies keep it open.", "15s"),
  presenceTtl: duration(
    "How long a presence channel's member stays listed after its node stops answering (a node killed), at least 3s: its leave is broadcast then.",
    "30s",
  ),
  retry: duration("The reconnect delay a client is told (`retry:`), also at shutdown.", "2s"),
  maxConnections: key.int({
    doc: "Streams this process serves at most; one more is answered 503.",
    default: 10_000,
    min: 1,
  }),
  maxChannels: key.int({ doc: "Channels one stream may subscribe to.", default: 20, min: 1 }),
  subscribeRate: key.block(
    {
      limit: key.int({ doc: "Subscriptions one client address may open per window.", default: 120, min: 1 }),
      window: duration("The window.", "1m"),
    },
    { doc: "Subscriptions per client address." },
  ),
  maxMessageSize: key.int({ doc: "The largest broadcast, in bytes of JSON.", default: 65_536, min: 16 }),
  maxBuffered: key.int({
    doc: "Bytes waiting for a slow client before its stream is dropped.",
    default: 262_144,
    min: 1024,
  }),
  allowedOrigins: key.list({
    doc: 'Origins besides the app\'s own whose pages may open a WebSocket (`["https://admin.example.com"]`).',
    default: [],
    item: /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/,
    expected: 'a list of origins such as ["https://admin.example.com"] (scheme, host and port only)',
  }),
});

/** The realtime battery's keys. */
export const realtimeConfigSchema = defineConfigSchema(
  { realtime: key.block(REALTIME_BLOCK_KEYS, { doc: "The realtime battery." }) },
  {
    invalid: (path, expected, value) => new E_REALTIME_OPTION_INVALID(path, expected, value),
    alsoReads: ["realtimeUrl"],
  },
);

/** The config keys the realtime battery reads, as an app writes them (see docs/realtime.md). */
export type RealtimeAppConfig = InputOf<typeof realtimeConfigSchema>;

/** The `realtime` block of an app's config (docs/realtime.md). */
export type RealtimeConfigBlock = NonNullable<RealtimeAppConfig["realtime"]>;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends RealtimeAppConfig {}
}
