import { defineConfig } from "fw-a";

/** Blog configuration; environment variables win (SECRET_KEY, DB_URL, ...). */
export const config = defineConfig({
  appName: "blog-a",
  dbUrl: "sqlite:data/blog.db",
});
