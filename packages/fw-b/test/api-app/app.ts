import { defineApp } from "fw-b";

// The OpenAPI fixture: JSON and XML routes with declared schemas, guarded routes, one HTML page.
export const app = defineApp({
  root: import.meta.dirname,
  auth: { loadUser: (id: unknown) => (id === 1 ? { id: 1, name: "Ann" } : undefined) },
  config: { appName: "Posts API", dbUrl: "sqlite::memory:", logRequests: false },
});
