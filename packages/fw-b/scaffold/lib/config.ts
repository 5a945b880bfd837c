import { defineConfig } from "fw-b";

/**
 * The app's configuration. Environment variables win (SECRET_KEY, DB_URL, LOG_LEVEL...), and
 * `environments[APP_ENV]` overrides these keys. Production refuses to start without a random
 * SECRET_KEY of 32 characters or more (`openssl rand -base64 32`), and, once contrib auth or
 * contact is on, without BASE_URL (the public address mailed links use) and MAIL_URL/MAIL_FROM.
 */
export const config = defineConfig({
  appName: "{{name}}",
  // The database (DB_URL wins): SQLite here; postgres://... or mysql://... work too.
  dbUrl: "sqlite:data/app.db",
  environments: {
    // In development mail is printed to the terminal, links included (mailUrl "log:"), so a signup's
    // verification link can be opened without an SMTP server. Set MAIL_URL (smtp://..., ses://region)
    // and MAIL_FROM for production.
    development: { mailUrl: "log:", mailFrom: "{{name}} <noreply@example.com>" },
    // Tests (npm test) never touch the development database or send mail: a database of their own
    // in memory (TEST_DB_URL, or DB_URL in .env.test, names another, named for tests), and every
    // mail kept for the test to read (client.mail).
    test: { dbUrl: "sqlite::memory:", mailUrl: "memory:", mailFrom: "{{name}} <noreply@example.com>" },
    production: { logLevel: "info" },
  },
});
