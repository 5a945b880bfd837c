import { defineConfig } from "fw-b";

/** The catalogue's configuration; environment variables (SECRET_KEY, LOG_LEVEL...) win. */
export const config = defineConfig({
  siteName: "Tea Catalogue",
  /** Products per page, in pages and in the API. */
  pageSize: 3,
  /** Keys the app reads itself (the start-up check refuses keys nothing declares). */
  appKeys: ["pageSize"],
});

// The app's own key, typed for `this.config.pageSize` (a battery adds its keys the same way).
declare module "fw-b" {
  interface AppConfig {
    readonly pageSize?: number;
  }
}
