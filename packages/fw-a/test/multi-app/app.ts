import { defineApp } from "fw-a";

const config = { env: "test", logRequests: false, batteries: { security: false, data: false, services: false } };

/** The API alone (`--app api`), also mounted under /api by the site. */
const api = defineApp({ root: import.meta.dirname, name: "api", views: ["api"], config });

/** One codebase, two apps: `site` serves its pages and mounts `api` under /api. */
export const apps = {
  site: defineApp({ root: import.meta.dirname, name: "site", views: ["site"], config, mounts: { "/api": api } }),
  api,
};
