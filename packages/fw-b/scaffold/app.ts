import { defineApp } from "fw-b";

/**
 * The app entry: `fw-b :serve` builds and serves this app. Sessions, CSRF, the database, mail
 * and cache are on by default (see `batteries` in lib/config.ts); `auth: { loadUser }` plugs in
 * your users, `plugins: [...]` adds more.
 */
export const app = defineApp({ root: import.meta.dirname });
