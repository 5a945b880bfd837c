import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ViewDecorator, ViewDecoratorContext } from "./decorators.js";
import { E_INVALID_DECORATOR_TARGET, E_INVALID_RESPONSE_STATUS, E_NOT_STANDARD_SCHEMA } from "./errors.js";
import { updateClassMetadata, updateMethodMetadata } from "./metadata.js";

// Declared schemas and documentation live in route tags like every other decorator value, under
// keys of their own. A class and its methods use different keys because route tags are a shallow
// overlay (method over class): a method that declares its body must not hide the class's 401 schema.

/** Route tag of the schemas a method declared (`@request.body(...)`, `@returns(200, ...)`). */
export const SCHEMAS_TAG = "schemas";
/** Route tag of the response schemas a class declared for all its routes. */
export const CLASS_SCHEMAS_TAG = "classSchemas";
/** Route tag of a method's documentation (summary, description, tags). */
export const DOC_TAG = "doc";
/** Route tag of a class's documentation (tags, description). */
export const CLASS_DOC_TAG = "classDoc";

/** The parts of a request a schema can be declared for. */
export type InputPart = "query" | "body" | "files";

/** The input parts, in the order they are validated and documented. */
export const INPUT_PARTS: readonly InputPart[] = Object.freeze(["query", "body", "files"]);

/** One declared schema and the decorator that declared it (for error messages). */
interface Declared {
  readonly schema: unknown;
  readonly decorator: string;
}

/** What the schema decorators record in a tag. */
interface SchemaTag {
  readonly input: Readonly<Partial<Record<InputPart, Declared>>>;
  readonly responses: Readonly<Record<string, Declared>>;
}

/** The schemas a route declared: input parts validated before the view, responses by status. */
export interface RouteSchemas {
  readonly query?: StandardSchemaV1;
  readonly body?: StandardSchemaV1;
  readonly files?: StandardSchemaV1;
  /** Response schemas by HTTP status (`"200"`), the class's overlaid by the method's. */
  readonly responses: Readonly<Record<string, StandardSchemaV1>>;
}

/** Human documentation of a route: from `@summary` / `@description` style decorators and the class. */
export interface RouteDoc {
  readonly summary?: string;
  readonly description?: string;
  /** Group names (OpenAPI tags); the class's unless the method or class gave its own. */
  readonly tags?: readonly string[];
  /** True when the route is marked deprecated. */
  readonly deprecated?: boolean;
}

const EMPTY_TAG: SchemaTag = Object.freeze({ input: Object.freeze({}), responses: Object.freeze({}) });

function schemaTagOf(value: unknown): SchemaTag {
  return typeof value === "object" && value !== null && "input" in value ? (value as SchemaTag) : EMPTY_TAG;
}

/** True for a Standard Schema v1 (zod 4, valibot, arktype...): `~standard.validate` is a function. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { "~standard"?: { version?: unknown; validate?: unknown } } | null | undefined)?.[
    "~standard"
  ];
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof props === "object" &&
    props !== null &&
    props.version === 1 &&
    typeof props.validate === "function"
  );
}

function methodNameOf(decorator: string, context: ViewDecoratorContext): string {
  if (context.kind !== "method" || context.static || context.private || typeof context.name !== "string") {
    throw new E_INVALID_DECORATOR_TARGET(
      decorator,
      context.kind === "method" ? "static, private or symbol-named method" : context.kind,
    );
  }
  return context.name;
}

/**
 * A method decorator declaring the schema of one input part (`query`, `body`, `files`). The value
 * is checked when the route table is built, so the error can name the route.
 */
export function inputSchema(decorator: string, part: InputPart, schema: unknown): ViewDecorator {
  return (_value, context) => {
    const name = methodNameOf(decorator, context);
    updateMethodMetadata(context.metadata, name, (current) => {
      const tag = schemaTagOf(current.tags[SCHEMAS_TAG]);
      const next: SchemaTag = { input: { ...tag.input, [part]: { schema, decorator } }, responses: tag.responses };
      return { ...current, tags: { ...current.tags, [SCHEMAS_TAG]: Object.freeze(next) } };
    });
  };
}

/**
 * A decorator declaring the schema of the answer with `status`, on a method or on a class (every
 * route of the class, a method's own declaration winning for the same status).
 */
export function responseSchema(decorator: string, status: number, schema: unknown): ViewDecorator {
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new E_INVALID_RESPONSE_STATUS(`@${decorator}`, String(status));
  }
  const add = (tag: SchemaTag): SchemaTag =>
    Object.freeze({ input: tag.input, responses: { ...tag.responses, [String(status)]: { schema, decorator } } });
  return (_value, context) => {
    if (context.kind === "class") {
      updateClassMetadata(context.metadata, (current) => {
        current.tags = { ...current.tags, [CLASS_SCHEMAS_TAG]: add(schemaTagOf(current.tags[CLASS_SCHEMAS_TAG])) };
      });
      return;
    }
    const name = methodNameOf(decorator, context);
    updateMethodMetadata(context.metadata, name, (current) => ({
      ...current,
      tags: { ...current.tags, [SCHEMAS_TAG]: add(schemaTagOf(current.tags[SCHEMAS_TAG])) },
    }));
  };
}

/** A decorator adding documentation to a method (summary, description...) or to a class (tags, description). */
export function routeDoc(decorator: string, doc: RouteDoc): ViewDecorator {
  const merge = (value: unknown): RouteDoc =>
    Object.freeze({ ...(typeof value === "object" && value !== null ? (value as RouteDoc) : {}), ...doc });
  return (_value, context) => {
    if (context.kind === "class") {
      updateClassMetadata(context.metadata, (current) => {
        current.tags = { ...current.tags, [CLASS_DOC_TAG]: merge(current.tags[CLASS_DOC_TAG]) };
      });
      return;
    }
    const name = methodNameOf(decorator, context);
    updateMethodMetadata(context.metadata, name, (current) => ({
      ...current,
      tags: { ...current.tags, [DOC_TAG]: merge(current.tags[DOC_TAG]) },
    }));
  };
}

/** Anything with route tags and an id (a `Route`). */
interface TaggedRouteLike {
  readonly id: string;
  readonly tags: Readonly<Record<string, unknown>>;
}

/**
 * Checks that every schema a route declared is a Standard Schema; throws E_NOT_STANDARD_SCHEMA
 * naming the route and the decorator otherwise. Run when the route table is built (start-up).
 */
export function checkRouteSchemas(route: TaggedRouteLike): void {
  for (const key of [SCHEMAS_TAG, CLASS_SCHEMAS_TAG]) {
    const tag = route.tags[key];
    if (tag === undefined) continue;
    const { input, responses } = schemaTagOf(tag);
    for (const declared of [...Object.values(input), ...Object.values(responses)]) {
      if (declared && !isStandardSchema(declared.schema)) {
        throw new E_NOT_STANDARD_SCHEMA(
          `@${declared.decorator} on ${route.id}`,
          `got ${describeValue(declared.schema)}`,
        );
      }
    }
  }
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "function") return `a function${value.name ? ` (${value.name})` : ""}`;
  if (typeof value === "object") return `an object with keys ${Object.keys(value).slice(0, 5).join(", ") || "(none)"}`;
  return `a ${typeof value}`;
}

/** The schemas a route declared: its input parts and its responses (the class's overlaid by its own). */
export function routeSchemas(route: { readonly tags: Readonly<Record<string, unknown>> }): RouteSchemas {
  const own = schemaTagOf(route.tags[SCHEMAS_TAG]);
  const inherited = schemaTagOf(route.tags[CLASS_SCHEMAS_TAG]);
  const responses: Record<string, StandardSchemaV1> = {};
  for (const [status, declared] of Object.entries({ ...inherited.responses, ...own.responses }))
    responses[status] = declared.schema as StandardSchemaV1;
  const schemas: { -readonly [K in InputPart]?: StandardSchemaV1 } = {};
  for (const part of INPUT_PARTS) {
    const declared = own.input[part];
    if (declared) schemas[part] = declared.schema as StandardSchemaV1;
  }
  return { ...schemas, responses };
}

/** True when a route declared any input schema (the data battery validates it before the view). */
export function hasInputSchemas(route: { readonly tags: Readonly<Record<string, unknown>> }): boolean {
  const tag = route.tags[SCHEMAS_TAG];
  return tag !== undefined && Object.keys(schemaTagOf(tag).input).length > 0;
}

/** A route's documentation: the method's over the class's, tags defaulting to the class name. */
export function routeDocOf(route: {
  readonly className: string;
  readonly tags: Readonly<Record<string, unknown>>;
}): RouteDoc {
  const own = (route.tags[DOC_TAG] ?? {}) as RouteDoc;
  const cls = (route.tags[CLASS_DOC_TAG] ?? {}) as RouteDoc;
  const doc: { -readonly [K in keyof RouteDoc]: RouteDoc[K] } = { tags: own.tags ?? cls.tags ?? [route.className] };
  if (own.summary !== undefined) doc.summary = own.summary;
  if (own.description !== undefined) doc.description = own.description;
  if (own.deprecated ?? cls.deprecated) doc.deprecated = true;
  return doc;
}
