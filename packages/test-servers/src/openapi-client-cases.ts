/**
 * The client both frameworks' OpenAPI tests compile and run against their `test/api-app`: the same
 * calls, paths written with the framework's trailing-slash rule (fw-a `/posts/`, fw-b `/posts`).
 * `client` must type-check and reach the running app; every `// @ts-expect-error` line of
 * `forbidden` must be an error against the generated types.
 */

/** The shape of the OpenAPI document the tests read. */
export type OpenApiTestDocument = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        responses: Record<string, unknown>;
        security?: unknown[];
        requestBody?: { content: Record<string, unknown> };
        parameters?: Array<{ name: string; in: string }>;
      }
    >
  >;
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
};

/** The client sources for an app whose paths end with `slash` (`"/"` for fw-a, `""` for fw-b). */
export function openApiClientSources(slash: "/" | ""): { readonly client: string; readonly forbidden: string } {
  const p = (path: string) => `${path}${slash}`;
  const client = `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

export async function run(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });
  const listed = await api.GET("${p("/posts")}", { params: { query: { page: 2 } } });
  const created = await api.POST("${p("/posts/create")}", { body: { title: "hello", tags: ["a"] } });
  const title: string | undefined = created.data?.title;
  const refused = await api.POST("${p("/posts/create")}", { body: { title: "x" } });
  const fields: Record<string, string[]> | undefined = refused.error?.error.fields;
  const shown = await api.GET("${p("/posts/show/{id}/{format}")}", { params: { path: { id: "3", format: "short" } } });
  const renamed = await api.PATCH("${p("/posts/{id}")}", { params: { path: { id: "5" } }, body: { title: "renamed" } });
  const me = await api.GET("${p("/account/me")}");
  return { page: listed.data?.page, title, refusedStatus: refused.response.status, fields, shown: shown.data?.title, renamed: renamed.data?.title, meStatus: me.response.status };
}
`;
  const forbidden = `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const api = createClient<paths>({ baseUrl: "http://127.0.0.1" });
// @ts-expect-error a path the app does not have
void api.GET("${p("/nope")}");
// @ts-expect-error the title is a string
void api.POST("${p("/posts/create")}", { body: { title: 42 } });
// @ts-expect-error create answers POST only
void api.GET("${p("/posts/create")}");
// @ts-expect-error the id path parameter is required
void api.GET("${p("/posts/show/{id}")}", { params: { path: {} } });
// @ts-expect-error the HTML page is not part of the API document
void api.GET("${p("/pages")}");
`;
  return { client, forbidden };
}
