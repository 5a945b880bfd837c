import type { StandardSchemaV1 } from "@standard-schema/spec";
import { inputSchema, responseSchema, routeDoc, type ViewDecorator } from "routing-kernel";

// fw-b's spelling of the shared schema and documentation decorators: the logic is routing-kernel's,
// the data battery validates, koa-host's OpenAPI generator reads them. Named as fw-a's members
// (`@request.body` is `@body` here); fw-a's `@response.schema(201, S)` is `@returns(201, S)`,
// since a bare `@schema` would not say which side of the exchange it describes.

/** Validates the query string with `schema` before the method runs; read it with `this.input(schema)`. */
export function query<S extends StandardSchemaV1>(schema: S): ViewDecorator {
  return inputSchema("query", "query", schema);
}

/** Validates the body (JSON, form or multipart fields) with `schema` before the method runs; read it with `this.input(schema)`. */
export function body<S extends StandardSchemaV1>(schema: S): ViewDecorator {
  return inputSchema("body", "body", schema);
}

/** Validates the uploaded files with `schema` before the method runs; documented as a multipart body. */
export function files<S extends StandardSchemaV1>(schema: S): ViewDecorator {
  return inputSchema("files", "files", schema);
}

/** Declares the answer with `status` (OpenAPI), on a method or on every route of a class. */
export function returns<S extends StandardSchemaV1>(status: number, schema: S): ViewDecorator {
  return responseSchema("returns", status, schema);
}

/** A one-line summary of the route (OpenAPI `summary`). */
export function summary(text: string): ViewDecorator {
  return routeDoc("summary", { summary: text });
}

/** A longer description of the route (OpenAPI `description`, Markdown). */
export function description(text: string): ViewDecorator {
  return routeDoc("description", { description: text });
}

/** Groups a class's (or a method's) routes under these names (OpenAPI `tags`; default: the class name). */
export function tags(...names: string[]): ViewDecorator {
  return routeDoc("tags", { tags: Object.freeze([...names]) });
}
