import type { StandardSchemaV1 } from "@standard-schema/spec";
import { inputSchema, responseSchema, routeDoc, type ViewDecorator } from "routing-kernel";

// fw-a's spelling of the shared schema and documentation decorators (the logic is routing-kernel's;
// the data battery validates, koa-host's OpenAPI generator reads them). Exposed as members of the
// `request` and `response` families.

/** Request-side schema and documentation decorators of fw-a (`@request.body(Schema)`...). */
export const requestSchemas = Object.freeze({
  /** Validates the query string with `schema` before the method runs; read it with `this.input(schema)`. */
  query: <S extends StandardSchemaV1>(schema: S): ViewDecorator => inputSchema("request.query", "query", schema),
  /** Validates the body (JSON, form or multipart fields) with `schema` before the method runs; read it with `this.input(schema)`. */
  body: <S extends StandardSchemaV1>(schema: S): ViewDecorator => inputSchema("request.body", "body", schema),
  /** Validates the uploaded files with `schema` before the method runs; documented as a multipart body. */
  files: <S extends StandardSchemaV1>(schema: S): ViewDecorator => inputSchema("request.files", "files", schema),
  /** A one-line summary of the route (OpenAPI `summary`). */
  summary: (text: string): ViewDecorator => routeDoc("request.summary", { summary: text }),
  /** A longer description of the route (OpenAPI `description`, Markdown). */
  description: (text: string): ViewDecorator => routeDoc("request.description", { description: text }),
  /** Groups a class's (or a method's) routes under these names (OpenAPI `tags`; default: the class name). */
  tags: (...names: string[]): ViewDecorator => routeDoc("request.tags", { tags: Object.freeze([...names]) }),
});

/** `@response.schema(status, Schema)`: declares the answer with `status` (on a method or a whole class). */
export function responseSchemaDecorator<S extends StandardSchemaV1>(status: number, schema: S): ViewDecorator {
  return responseSchema("response.schema", status, schema);
}
