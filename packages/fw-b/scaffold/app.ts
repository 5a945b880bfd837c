import { defineApp } from "fw-b";

/**
 * The app entry: `fw-b :serve` builds and serves this app. Batteries (sessions, CSRF, login,
 * database, cache...) go in `plugins: [...]`.
 */
export const app = defineApp({ root: import.meta.dirname });
