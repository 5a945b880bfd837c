/**
 * What the services plugin builds and serves with: the mailer, storage, assets, the signal bridge,
 * the mail previews and the response cache. The plugin imports this file in its `setup`, so an
 * app that switches the battery off never loads them.
 */
export { prepareAssets } from "./assets/assets.js";
export { serveAssets } from "./assets/serve.js";
export { responseCache } from "./cache/response.js";
export { createMailer } from "./mail/mailer.js";
export { LogTransport } from "./mail/transports/log.js";
export { mailPreviewMiddleware } from "./mail/previews/index.js";
export { bridgeSignals } from "./signals/bridge.js";
export { requestSignals } from "./signals/request-signals.js";
export { serveStorage } from "./storage/serve.js";
export { createStorage } from "./storage/storage.js";
export { MAIL_PREVIEW_PATH } from "./mail/previews/index.js";
