import { defineApp } from "fw-b";

/**
 * The catalogue app. `fw-b :serve` in this folder serves it. Batteries (sessions, login, the
 * database) will be listed in `plugins` as they land.
 */
export const app = defineApp({ root: import.meta.dirname, name: "catalog-b" });
