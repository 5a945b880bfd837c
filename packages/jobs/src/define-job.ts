import type { StandardSchemaV1 } from "@standard-schema/spec";
import { Job, type JobClass, type JobContext, type JobSettings } from "./job.js";

/** What {@link defineJob} takes: a name, a schema, the job's settings and its `handle`. */
export interface JobDefinition<Schema extends StandardSchemaV1> extends JobSettings {
  /** The name a worker finds the job by, unique in the app. */
  readonly name: string;
  /** The Standard Schema of the payload (zod, valibot, arktype...). */
  readonly schema: Schema;
  /** The work; receives the schema's output. */
  handle(payload: StandardSchemaV1.InferOutput<Schema>, context: JobContext): unknown;
}

/** A job class made by {@link defineJob}. */
export type DefinedJob<Schema extends StandardSchemaV1> = JobClass<
  StandardSchemaV1.InferOutput<Schema>,
  StandardSchemaV1.InferInput<Schema>
> & {
  dispatch: (typeof Job)["dispatch"];
};

/**
 * A job written as a function: the same thing as a {@link Job} class (it returns one), for jobs
 * with nothing but a handler.
 *
 * ```ts
 * export const SendWelcome = defineJob({
 *   name: "send-welcome",
 *   schema: z.object({ userId: z.number() }),
 *   attempts: 5,
 *   async handle({ userId }) { ... },
 * });
 * await SendWelcome.dispatch({ userId: 1 });
 * ```
 */
export function defineJob<Schema extends StandardSchemaV1>(definition: JobDefinition<Schema>): DefinedJob<Schema> {
  const { name, schema, handle, ...settings } = definition;
  const Defined = class extends Job<StandardSchemaV1.InferOutput<Schema>, StandardSchemaV1.InferInput<Schema>> {
    static override jobName = name;
    static override schema: StandardSchemaV1 = schema;
    static override options: JobSettings = settings;
    handle(payload: StandardSchemaV1.InferOutput<Schema>, context: JobContext): unknown {
      return handle.call(definition, payload, context);
    }
  };
  Object.defineProperty(Defined, "name", { value: name });
  return Defined as unknown as DefinedJob<Schema>;
}
