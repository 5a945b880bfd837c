import type { StandardSchemaV1 } from "@standard-schema/spec";
import { routeMetadata, type Route, type RouteMetadata } from "routing-kernel";
import { toJsonSchema } from "./json-schema.js";
import { checkOpenApiOptions } from "./options.js";
import type { OpenApiContribution, OpenApiObject, OpenApiOptions, OpenApiResult, OpenApiRouteNotes } from "./types.js";

/** The routes of one app (or of one mounted app, under its URL prefix) and its plugins' notes. */
export interface OpenApiSource {
  readonly routes: readonly Route[];
  /** URL prefix of these routes (a mount or a basePath), "" for none. */
  readonly prefix: string;
  readonly contributions: readonly OpenApiContribution[];
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  json: "application/json",
  xml: "application/xml",
  html: "text/html",
};
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** `{"error": {"status": N, "message": "..."}}`: how both frameworks answer errors of data routes. */
const ERROR_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["status", "message"],
      properties: { status: { type: "integer" }, message: { type: "string" } },
    },
  },
};
/** The 422 answer of a refused input (data's validationErrorBody). */
const VALIDATION_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["status", "message", "fields"],
      properties: {
        status: { const: 422 },
        message: { type: "string" },
        fields: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
      },
    },
  },
};

/**
 * An OpenAPI 3.1 document of the given routes: one path per concrete pattern (a route with an
 * optional segment gives one path without it and one with it), one operation per verb (HEAD is
 * GET's), parameters, request bodies and responses from the declared schemas, and what plugins
 * add (401/403 and security schemes from the security battery). HTML routes are left out unless
 * `includeHtml`. A schema without a JSON Schema converter is left out with a warning, never a crash.
 */
export async function openApiDocument(
  sources: readonly OpenApiSource[],
  given: OpenApiOptions = {},
): Promise<OpenApiResult> {
  const options = checkOpenApiOptions(given, "openApiDocument()");
  const warnings: string[] = [];
  const paths: Record<string, Record<string, OpenApiObject>> = {};
  const securitySchemes: Record<string, OpenApiObject> = {};
  const tags = new Map<string, OpenApiObject>();
  let usesErrors = false;
  let usesValidation = false;

  for (const source of sources) {
    for (const contribution of source.contributions) Object.assign(securitySchemes, contribution.securitySchemes);
    for (const route of source.routes) {
      const meta = routeMetadata(route);
      if (meta.responseKind === "html" && !options.includeHtml) continue;
      const notes = source.contributions
        .map((c) => c.route?.(route))
        .filter((n): n is OpenApiRouteNotes => n !== undefined);
      const convert = async (
        schema: StandardSchemaV1 | undefined,
        io: "input" | "output",
        what: string,
      ): Promise<OpenApiObject | undefined> => {
        if (!schema) return undefined;
        const converted = await toJsonSchema(schema, io);
        if ("schema" in converted) return converted.schema;
        warnings.push(`${meta.id}: its ${what} schema is left out of the OpenAPI document (${converted.reason}).`);
        return undefined;
      };
      const query = await convert(meta.schemas.query, "input", "query");
      const body = await convert(meta.schemas.body, "input", "body");
      const files = await convert(meta.schemas.files, "input", "files");
      const responses: Record<string, OpenApiObject | undefined> = {};
      for (const [status, schema] of Object.entries(meta.schemas.responses))
        responses[status] = await convert(schema, "output", `${status} response`);
      const declaredInput =
        meta.schemas.query !== undefined || meta.schemas.body !== undefined || meta.schemas.files !== undefined;
      for (const tag of meta.tags) if (!tags.has(tag)) tags.set(tag, { name: tag });

      meta.patterns.forEach((pattern, index) => {
        const path = toOpenApiPath(source.prefix + pattern);
        const item = (paths[path] ??= {});
        for (const verb of meta.verbs) {
          if (verb === "HEAD") continue;
          const operation = operationOf(meta, pattern, index, verb, { query, body, files, responses, notes });
          if (meta.responseKind !== "html") usesErrors = true;
          if (declaredInput) usesValidation = true;
          item[verb.toLowerCase()] = operation;
        }
      });
    }
  }

  // Only what an operation refers to: a scheme or schema nobody uses is noise to a reader and to
  // linters (Redocly's no-unused-components).
  const used = usedSchemes(paths);
  const referenced = JSON.stringify(paths);
  const components: OpenApiObject = {};
  const schemas: Record<string, OpenApiObject> = {};
  if (usesErrors && referenced.includes('"#/components/schemas/Error"')) schemas["Error"] = ERROR_SCHEMA;
  if (usesValidation) schemas["ValidationError"] = VALIDATION_SCHEMA;
  if (Object.keys(schemas).length > 0) components["schemas"] = schemas;
  const schemes = Object.fromEntries(Object.entries(securitySchemes).filter(([name]) => used.has(name)));
  if (Object.keys(schemes).length > 0) components["securitySchemes"] = schemes;
  const info: OpenApiObject = { title: options.title ?? "API", version: options.version ?? "1.0.0" };
  if (options.description) info["description"] = options.description;
  const document: OpenApiObject = {
    openapi: "3.1.0",
    info,
    // Default: the origin (and base path) the document is served from, which the paths already carry.
    servers: (options.servers ?? [{ url: "/" }]).map((s) => ({ ...s })),
    ...(tags.size > 0 ? { tags: [...tags.values()] } : {}),
    paths,
    ...(Object.keys(components).length > 0 ? { components } : {}),
  };
  return { document, warnings };
}

/** The names of the security schemes the operations require. */
function usedSchemes(paths: Record<string, Record<string, OpenApiObject>>): Set<string> {
  const used = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      for (const requirement of (operation["security"] ?? []) as Array<Record<string, unknown>>)
        for (const name of Object.keys(requirement)) used.add(name);
    }
  }
  return used;
}

interface Parts {
  readonly query: OpenApiObject | undefined;
  readonly body: OpenApiObject | undefined;
  readonly files: OpenApiObject | undefined;
  readonly responses: Readonly<Record<string, OpenApiObject | undefined>>;
  readonly notes: readonly OpenApiRouteNotes[];
}

/** One operation: parameters, request body, responses, security. */
function operationOf(meta: RouteMetadata, pattern: string, index: number, verb: string, parts: Parts): OpenApiObject {
  const extra = meta.patterns.length > 1 || meta.verbs.filter((v) => v !== "HEAD").length > 1;
  const operation: OpenApiObject = {
    operationId: extra ? operationIdOf(meta, index, verb) : meta.id,
    tags: [...meta.tags],
  };
  // Every operation has a summary (lists and linters show it): the decorator's, else the route's name.
  operation["summary"] = meta.summary ?? meta.id;
  const optional = meta.parameters.filter((p) => p.optional && p.source === "path").map((p) => p.name);
  const description = [
    meta.description,
    optional.length > 0
      ? `Optional segments (${optional.map((n) => `\`${n}\``).join(", ")}) are listed as separate paths: \`${meta.path}\` answers with and without them.`
      : undefined,
  ].filter(Boolean);
  if (description.length > 0) operation["description"] = description.join("\n\n");
  if (meta.deprecated) operation["deprecated"] = true;

  const parameters: OpenApiObject[] = [];
  for (const name of pathParams(pattern))
    parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
  if (parts.query) {
    const properties = (parts.query["properties"] ?? {}) as Record<string, OpenApiObject>;
    const required = new Set((parts.query["required"] ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties))
      parameters.push({ name, in: "query", required: required.has(name), schema });
  }
  if (parameters.length > 0) operation["parameters"] = parameters;

  const requestBody = requestBodyOf(meta, parts);
  if (requestBody && !SAFE.has(verb)) operation["requestBody"] = requestBody;

  const contentType = CONTENT_TYPES[meta.responseKind] ?? "application/json";
  const responses: Record<string, OpenApiObject> = {};
  for (const [status, schema] of Object.entries(parts.responses)) {
    responses[status] = { description: describeStatus(status), content: { [contentType]: schema ? { schema } : {} } };
  }
  if (!Object.keys(responses).some((status) => status.startsWith("2") || status.startsWith("3"))) {
    responses["200"] = {
      description: "Success",
      content: { [contentType]: meta.responseKind === "json" ? { schema: {} } : {} },
    };
  }
  const data = meta.responseKind !== "html";
  const errorContent = data
    ? {
        content: {
          [contentType]: meta.responseKind === "json" ? { schema: { $ref: "#/components/schemas/Error" } } : {},
        },
      }
    : {};
  if (meta.schemas.query || meta.schemas.body || meta.schemas.files) {
    responses["422"] ??= {
      description: "The input was refused: per-field messages",
      ...(data
        ? {
            content: {
              [contentType]:
                meta.responseKind === "json" ? { schema: { $ref: "#/components/schemas/ValidationError" } } : {},
            },
          }
        : {}),
    };
  }
  for (const note of parts.notes) {
    for (const [status, text] of Object.entries(note.responses ?? {}))
      responses[status] ??= { description: text, ...errorContent };
  }
  operation["responses"] = responses;

  // Always said: `[]` marks a public operation, so no reader (or tool) takes it for one that forgot its scheme.
  const security = parts.notes.flatMap((note) => note.security ?? []);
  operation["security"] = security.map((requirement) =>
    Object.fromEntries(Object.entries(requirement).map(([k, v]) => [k, [...v]])),
  );
  return operation;
}

/** The request body of an operation: multipart with files, else JSON and form (koa-body parses all three). */
function requestBodyOf(meta: RouteMetadata, parts: Parts): OpenApiObject | undefined {
  if (!parts.body && !parts.files && !meta.schemas.body && !meta.schemas.files) return undefined;
  const body = parts.body ?? {};
  if (meta.schemas.files) {
    const fileFields = Object.keys((parts.files?.["properties"] ?? {}) as object);
    const properties: Record<string, OpenApiObject> = {
      ...((body["properties"] ?? {}) as Record<string, OpenApiObject>),
    };
    for (const field of fileFields)
      properties[field] = { type: "string", contentMediaType: "application/octet-stream" };
    const required = [...((body["required"] ?? []) as string[]), ...((parts.files?.["required"] ?? []) as string[])];
    return {
      required: true,
      content: {
        "multipart/form-data": { schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) } },
      },
    };
  }
  const schema = parts.body ? { schema: parts.body } : {};
  return { required: true, content: { "application/json": schema, "application/x-www-form-urlencoded": schema } };
}

/** `/posts/:id` -> `/posts/{id}`. */
export function toOpenApiPath(pattern: string): string {
  return pattern.replace(/:([A-Za-z_$][\w$]*)\??/g, "{$1}");
}

function pathParams(pattern: string): string[] {
  return [...pattern.matchAll(/:([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!);
}

/** Unique ids for a route with several paths or verbs: `Posts.show`, `Posts.show.2`, `Posts.save.put`. */
function operationIdOf(meta: RouteMetadata, index: number, verb: string): string {
  const verbs = meta.verbs.filter((v) => v !== "HEAD");
  return [meta.id, index > 0 ? String(index + 1) : "", verbs.length > 1 ? verb.toLowerCase() : ""]
    .filter(Boolean)
    .join(".");
}

function describeStatus(status: string): string {
  const texts: Record<string, string> = {
    "200": "Success",
    "201": "Created",
    "202": "Accepted",
    "204": "No content",
    "400": "Bad request",
    "401": "Unauthorized",
    "403": "Forbidden",
    "404": "Not found",
    "409": "Conflict",
    "422": "The input was refused",
    "429": "Too many requests",
  };
  return texts[status] ?? `HTTP ${status}`;
}
