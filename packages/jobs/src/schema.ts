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

/** A payload checked at dispatch: what the queue keeps (JSON) and what the job's handle gets. */
export interface PreparedPayload {
  /** The payload as JSON carries it: what the queue stores and a worker checks again. */
  readonly stored: unknown;
  /** The schema's output of `stored`: what `handle` receives. */
  readonly value: unknown;
}

async function validate(job: JobClass, payload: unknown): Promise<StandardSchemaV1.Result<unknown>> {
  const schema = job.schema;
  if (!isStandardSchema(schema))
    throw new E_JOB_DEFINITION_INVALID(
      jobNameOf(job),
      "static schema is not a Standard Schema (zod 4, valibot, arktype...)",
    );
  return schema["~standard"].validate(payload);
}

/**
 * Checks a payload at dispatch: its JSON form (what the queue keeps, so what a worker checks again)
 * must pass the job's schema, else `E_JOB_PAYLOAD_INVALID` naming the job and the issues. A job
 * without a schema takes any JSON payload as it is.
 */
export async function preparePayload(job: JobClass, payload: unknown): Promise<PreparedPayload> {
  const stored = asJson(job, payload);
  if (job.schema === undefined) return { stored, value: stored };
  const result = await validate(job, stored);
  if (!result.issues) return { stored, value: result.value };
  // The value itself may pass while its JSON form does not (a Date for z.date()): say why.
  const direct = stored === payload ? result : await validate(job, payload);
  if (!direct.issues)
    throw new E_JOB_PAYLOAD_INVALID(
      jobNameOf(job),
      `${describeIssues(result.issues)} once written as JSON, as the queue keeps it (a worker checks the payload again; use a schema JSON satisfies, such as z.coerce.date() for a date)`,
    );
  throw new E_JOB_PAYLOAD_INVALID(jobNameOf(job), describeIssues(result.issues));
}

/** The payload as the job's handle receives it (the schema's output), checked as at dispatch. */
export async function checkPayload(job: JobClass, payload: unknown): Promise<unknown> {
  return (await preparePayload(job, payload)).value;
}

/**
 * Checks a payload a worker took from the queue against the job's schema before the job runs: a
 * payload the schema refuses (added or edited by hand, or the schema changed since) is
 * `E_JOB_PAYLOAD_INVALID`, which fails the job at once, without retries.
 */
export async function checkQueuedPayload(job: JobClass, stored: unknown): Promise<unknown> {
  if (job.schema === undefined) return stored;
  const result = await validate(job, stored);
  if (result.issues) throw new E_JOB_PAYLOAD_INVALID(jobNameOf(job), describeIssues(result.issues), "queued");
  return result.value;
}

/**
 * The payload as the queue keeps it: through JSON, as Redis stores it, so the in-process queue,
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
