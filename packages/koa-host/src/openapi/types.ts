import type { Route } from "routing-kernel";

/** A JSON object of an OpenAPI document (a schema, an operation...). */
export type OpenApiObject = Record<string, unknown>;

/** What a plugin adds to one route's OpenAPI operation (the security battery: 401, 403, security). */
export interface OpenApiRouteNotes {
  /** Alternative security requirements (OpenAPI `security`): `[{ sessionCookie: [] }]`. */
  readonly security?: ReadonlyArray<Readonly<Record<string, readonly string[]>>>;
  /** Answers the plugin can give on this route, by status: `{ "401": "Login required" }`. */
  readonly responses?: Readonly<Record<string, string>>;
}

/** A plugin's part of the OpenAPI document (`HostPlugin.openApi()`). */
export interface OpenApiContribution {
  /** Security schemes by name (OpenAPI `components.securitySchemes`). */
  readonly securitySchemes?: Readonly<Record<string, OpenApiObject>>;
  /** What the plugin adds to one route's operation, decided from its tags. */
  route?(route: Route): OpenApiRouteNotes | undefined;
}

/** Options of the OpenAPI generator (config block `openapi` gives the same keys). */
export interface OpenApiOptions {
  /** `info.title` (default: the app's `appName`, else "API"). */
  readonly title?: string;
  /** `info.version` (default "1.0.0"). */
  readonly version?: string;
  /** `info.description`. */
  readonly description?: string;
  /** Include HTML routes (default false: only JSON and XML routes are an API). */
  readonly includeHtml?: boolean;
  /**
   * `servers`: URLs (`"https://api.example.com"`) or `{ url, description }` objects; default
   * `[{ url: "/" }]`, the origin the document is served from.
   */
  readonly servers?: ReadonlyArray<string | OpenApiServer>;
}

/** One entry of the document's `servers`. */
export interface OpenApiServer {
  readonly url: string;
  readonly description?: string;
}

/** The generator's answer: the document and what it had to leave out. */
export interface OpenApiResult {
  readonly document: OpenApiObject;
  /** One line per schema left undocumented (no JSON Schema converter), naming the route. */
  readonly warnings: readonly string[];
}
