/** The dispatcher's trace context as BullMQ keeps it: a JSON object in the job's telemetry metadata. */
import type { JobTrace } from "./types.js";

/**
 * Reads the trace context stored with a BullMQ job (`opts.telemetry.metadata`); none, or one this
 * process cannot read (another producer's format), is no trace: the run starts a trace of its own.
 */
export function traceOf(job: {
  readonly opts?: { readonly telemetry?: { readonly metadata?: string } };
}): JobTrace | undefined {
  const metadata = job.opts?.telemetry?.metadata;
  if (!metadata) return undefined;
  try {
    const parsed: unknown = JSON.parse(metadata);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    const entries = Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string");
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  } catch {
    return undefined;
  }
}
