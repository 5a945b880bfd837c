/**
 * What the realtime plugin serves with once an app declares a channel: the backends, the event
 * stream and WebSocket endpoints, the browser client and the subscribe rate. The plugin imports this
 * file in its `setup`, so an app that declares no channel never loads them.
 */
export { memoryBackend } from "./backends/memory.js";
export { redisBackend } from "./backends/redis.js";
export { clientAsset, readClientSource } from "./client-asset.js";
export { eventsEndpoint } from "./endpoint.js";
export { SubscribeRate } from "./rate.js";
export { socketEndpoint } from "./socket/endpoint.js";
export { CLOSE_CODES } from "./socket/protocol.js";
