import type { StandardSchemaV1 } from "@standard-schema/spec";
import { E_JOB_DEFINITION_INVALID, E_JOB_PAYLOAD_INVALID } from "./errors.js";
import { type JobClass, jobNameOf } from "./job.js";

/** True for a Standard Schema (zod 4, valibot, arktype...). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { "~standard"?: { validate?: unknown } } | null | undefined)?.["~standard"];
  return typeof standard?.validate === "function";
}

function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * The payload as the job's schema outputs it, through JSON, or `E_JOB_PAYLOAD_INVALID` naming the
 * job and the issues. A job without a schema takes any JSON payload as it is.
 */
export async function checkPayload(job: JobClass, payload: unknown): Promise<unknown> {
  const schema = job.schema;
  if (schema === undefined) return asJson(job, payload);
  if (!isStandardSchema(schema))
    throw new E_JOB_DEFINITION_INVALID(
      jobNameOf(job),
      "static schema is not a Standard Schema (zod 4, valibot, arktype...)",
    );
  const result = await schema["~standard"].validate(payload);
  if (result.issues) throw new E_JOB_PAYLOAD_INVALID(jobNameOf(job), describeIssues(result.issues));
  return asJson(job, result.value);
}

/**
 * The payload as a worker will get it: through JSON, as Redis stores it, so the in-process queue,
 * the inline runner and the fake hand a job what BullMQ would (dates as strings, no undefined keys).
 * A value JSON cannot carry (a bigint, a cycle) is `E_JOB_PAYLOAD_INVALID`.
 */
function asJson(job: JobClass, value: unknown): unknown {
  if (value === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new E_JOB_PAYLOAD_INVALID(jobNameOf(job), `it cannot be written as JSON (${(error as Error).message})`);
  }
  return JSON.parse(text) as unknown;
}
