/** The development mail preview pages (`/_mail`). */
export { MAIL_PREVIEW_PATH, mailPreviewMiddleware, type MailPreviewHints } from "./middleware.js";
export { caughtPage, indexPage, previewPage, type RenderedPreview } from "./page.js";
export { listMailSources, previewData, type MailSource } from "./sources.js";
