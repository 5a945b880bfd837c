import { defineApp } from "fw-a";

// The factories fixture: a notes model, its factory, and a JSON view listing the rows.
export const app = defineApp({
  root: import.meta.dirname,
  config: { dbUrl: "sqlite::memory:", logRequests: false, batteries: { security: false, services: false } },
});
