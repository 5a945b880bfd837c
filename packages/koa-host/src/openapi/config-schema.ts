/**
 * The `openapi` config block, declared once: its type (`OpenApiConfig`), the start-up check of
 * unknown keys, the defaults and its rows of docs/configuration.md follow from it. The generator's
 * options (`title`, `servers`...) are read further by `checkOpenApiOptions` (options.ts), which
 * `openApiDocument()` shares.
 */
import { E_OPENAPI_OPTION } from "../errors.js";
import { key, type ReadContext } from "../config-schema/keys.js";
import { defineConfigSchema, type InputOf } from "../config-schema/schema.js";
import type { OpenApiServer } from "./types.js";

const PATH = /^\/[A-Za-z0-9._~/-]*$/;

/** The `openapi` block's keys. */
export const openApiConfigSchema = defineConfigSchema(
  {
    openapi: key.block(
      {
        serve: key.bool({ doc: "Serve the document and the page.", defaultText: "`true`, except in production" }),
        path: key.string({
          doc: "Where the document is served.",
          default: "/openapi.json",
          pattern: PATH,
          expected: "a path such as /openapi.json",
        }),
        docsPath: key.custom<string | false>({
          doc: "Where the Swagger UI page is served; `false` serves the document alone.",
          kind: "path or false",
          default: "/docs",
          read: (value: unknown, context: ReadContext) =>
            value === false || (typeof value === "string" && PATH.test(value))
              ? value
              : context.invalid(context.path, "a path such as /docs, or false", value),
        }),
        title: key.string({ doc: "`info.title`.", defaultText: '`appName`, else `"API"`' }),
        version: key.string({ doc: "`info.version`.", defaultText: '`"1.0.0"`' }),
        description: key.string({ doc: "`info.description`." }),
        includeHtml: key.bool({
          doc: "Include HTML routes (else only JSON and XML routes are an API).",
          defaultText: "`false`",
        }),
        servers: key.custom<ReadonlyArray<string | OpenApiServer>>({
          doc: 'URLs (`"https://api.example.com"`) or `{ url, description }` objects.',
          kind: "list of URLs or { url, description }",
          defaultText: '`[{ url: "/" }]`',
          // Checked by checkOpenApiOptions, as openApiDocument()'s option is.
          read: (value) => value as ReadonlyArray<string | OpenApiServer>,
        }),
      },
      { doc: "The OpenAPI document and its page." },
    ),
  },
  {
    invalid: (path, expected, value) =>
      new E_OPENAPI_OPTION("the openapi config block", path, `expected ${expected}, not ${JSON.stringify(value)}`),
  },
);

/** The `openapi` config block: serving the document and a documentation page. */
export type OpenApiConfig = NonNullable<InputOf<typeof openApiConfigSchema>["openapi"]>;
