import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { E_OPENAPI_CONVERTER_MISSING } from "../errors.js";
import type { OpenApiObject } from "./types.js";

/** The JSON Schema of a Standard Schema, or why there is none. */
export type Converted = { readonly schema: OpenApiObject } | { readonly reason: string };

type Converter = StandardJSONSchemaV1.Converter;

/**
 * Converts a Standard Schema to JSON Schema (draft 2020-12, OpenAPI 3.1's dialect): through the
 * Standard JSON Schema interface (`~standard.jsonSchema`, zod 4), else valibot's own converter
 * (`@valibot/to-json-schema`, loaded only when a valibot schema is documented). `input` describes
 * what a client sends (request parts), `output` what the app answers.
 */
export async function toJsonSchema(schema: StandardSchemaV1, io: "input" | "output"): Promise<Converted> {
  const standard = schema["~standard"] as StandardSchemaV1.Props & { readonly jsonSchema?: Partial<Converter> };
  try {
    const convert = standard.jsonSchema?.[io];
    if (typeof convert === "function") return { schema: clean(convert({ target: "draft-2020-12" })) };
    if (standard.vendor === "valibot") return { schema: clean(await valibotJsonSchema(schema)) };
  } catch (error) {
    return { reason: String((error as Error).message ?? error).split("\n")[0]! };
  }
  return { reason: `a ${standard.vendor} schema has no JSON Schema converter (~standard.jsonSchema)` };
}

async function valibotJsonSchema(schema: StandardSchemaV1): Promise<OpenApiObject> {
  let converter: { toJsonSchema: (schema: unknown, config?: object) => OpenApiObject };
  // An optional peer: named through a variable so neither the types nor the package are needed to build.
  const name = "@valibot/to-json-schema";
  try {
    converter = (await import(name)) as typeof converter;
  } catch {
    throw new E_OPENAPI_CONVERTER_MISSING("valibot", name);
  }
  return converter.toJsonSchema(schema, { errorMode: "ignore" });
}

/** The schema without its `$schema` line (the document's dialect applies) as plain JSON. */
function clean(schema: Record<string, unknown>): OpenApiObject {
  const { $schema: _dialect, ...rest } = JSON.parse(JSON.stringify(schema)) as OpenApiObject;
  return rest;
}
