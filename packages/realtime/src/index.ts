/**
 * @module @fwkit/realtime
 * Realtime channels for koa-host apps (fw-a and fw-b turn it on as a battery): `broadcast(channel,
 * event, data)` from anywhere in the app, server-sent event streams at `/_events` authorised per
 * channel, resumable with `Last-Event-ID`, on `memory:` or across nodes on `redis://`; WebSockets on
 * the same path; presence channels (who is here).
 */
export { broadcast } from "./broadcast.js";
export type { AuthorizeInput, AuthorizeResult, ChannelDefinition, PresenceMember } from "./channels.js";
export {
  REALTIME_CONFIG_KEYS,
  readRealtimeConfig,
  realtimeConfigSchema,
  type Duration,
  type RealtimeAppConfig,
  type RealtimeConfigBlock,
  type RealtimeSettings,
} from "./config.js";
export * from "./errors.js";
export { RealtimeHub, type PresenceHandle, type RecordedBroadcast } from "./hub.js";
export {
  ChannelHandler,
  type ChannelHandlers,
  type ChannelReceiver,
  type ReceiveInput,
} from "./receive.js";
export { REALTIME_PLUGIN_NAME, realtimeOf, realtimePlugin, type RealtimePlugin } from "./plugin.js";
