/**
 * fw-b's own keys in an app's config (`siteName`, `contrib`), declared once: the app-facing type
 * (`FwBAppConfig`, added to `AppConfig` of `@fwkit/koa-host` by module augmentation like the
 * batteries' keys, so a misspelt key in `defineConfig({...})` is a compile error), the start-up
 * check of unknown keys, the defaults and the rows of docs/configuration.md follow from it.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import { defineConfigSchema, type InputOf, key } from "@fwkit/koa-host/config-schema";
import { CONTRIB_KEYS, type ContribConfig } from "./contrib/config-schema.js";
import { E_CONTRIB_CONFIG } from "./errors.js";

/** fw-b's keys. */
export const fwbConfigSchema = defineConfigSchema(
  {
    siteName: key.string({ doc: "The site's name in the layout and in mail." }),
    contrib: key.block(CONTRIB_KEYS, {
      doc: "The contrib modules: `{ auth: true, admin: true, contact: { recipients: [...] } }`.",
    }),
  },
  {
    invalid: (path, expected, value) =>
      new E_CONTRIB_CONFIG(path, `expected ${expected}, not ${JSON.stringify(value) ?? String(value)}`),
  },
);

/** The config keys fw-b reads, as an app writes them (see docs/fw-b.md and docs/fw-b-contrib.md). */
export type FwBAppConfig = Omit<InputOf<typeof fwbConfigSchema>, "contrib"> & {
  /** The contrib modules: `{ auth: true, admin: true, contact: { recipients: [...] } }`. */
  readonly contrib?: ContribConfig;
};

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends FwBAppConfig {}
}
