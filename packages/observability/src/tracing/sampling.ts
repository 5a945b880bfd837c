/**
 * What the SDK's sampler (chosen by `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, read the
 * way the SDK reads them) can decide for a request's root span, known at start-up: a sampler that
 * never samples a root lets the server span skip the span entirely, not make one to drop it.
 */

/**
 * `sampler`: ask the sampler per request; `never`: no request is sampled (`always_off`, a ratio of
 * 0); `parent`: only a request whose trusted parent is sampled (`parentbased_always_off`, a
 * parent-based ratio of 0).
 */
export type RootSampling = "sampler" | "never" | "parent";

type Env = Readonly<Record<string, string | undefined>>;

/** Reads the sampler variables as the SDK does (an unknown name is its default, which samples). */
export function rootSampling(env: Env = process.env): RootSampling {
  // The SDK compares the name untrimmed, and reads the ratio with `Number` (blank: its default, 1).
  const name = env["OTEL_TRACES_SAMPLER"];
  const arg = env["OTEL_TRACES_SAMPLER_ARG"];
  const ratioZero = arg !== undefined && arg.trim() !== "" && Number(arg) === 0;
  if (name === "always_off" || (name === "traceidratio" && ratioZero)) return "never";
  if (name === "parentbased_always_off" || (name === "parentbased_traceidratio" && ratioZero)) return "parent";
  return "sampler";
}
