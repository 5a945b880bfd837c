/**
 * The one resolved password policy of an app, and how the free functions find it. The plugin
 * turns the security config into a policy once at start-up ({@link passwordPolicyOf}); every
 * entry point that hashes (`securityPlugin().hashPassword`, the contrib pages, fw-a's
 * `security.hashPassword`, fw-b's `hashPassword`, the CLI) reads that object, never the config keys.
 * The free functions called without a policy use the policy of the app serving the current
 * request, or, outside a request (a CLI command, a script), of the one app set up in the process.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { PasswordAlgorithm, SecurityConfig } from "./config.js";
import { E_PASSWORD_POLICY_AMBIGUOUS } from "./errors.js";

/** Hashing policy; every field defaults to the package defaults. */
export interface PasswordOptions {
  /** `bcrypt` (default) or `argon2id`. */
  readonly algorithm?: PasswordAlgorithm;
  /** bcrypt cost, 4..31 (default 12). */
  readonly bcryptCost?: number;
  /** argon2id memory in KiB (default 19456). */
  readonly argon2MemoryCost?: number;
  /** argon2id passes (default 2). */
  readonly argon2TimeCost?: number;
  /** argon2id lanes (default 1). */
  readonly argon2Parallelism?: number;
}

/** The hashing policy of a resolved security config: the only place its password keys are read. */
export function passwordPolicyOf(config: SecurityConfig): Required<PasswordOptions> {
  return Object.freeze({
    algorithm: config.passwordAlgorithm,
    bcryptCost: config.bcryptCost,
    argon2MemoryCost: config.argon2MemoryCost,
    argon2TimeCost: config.argon2TimeCost,
    argon2Parallelism: config.argon2Parallelism,
  });
}

interface PolicyState {
  readonly request: AsyncLocalStorage<Required<PasswordOptions>>;
  /** The policies of the apps set up in this process (one entry per app). */
  readonly apps: Set<Required<PasswordOptions>>;
  /** Whether those policies differ, worked out when an app is set up or closed (not per request). */
  disagree?: boolean;
}

// On globalThis under a registered symbol: two copies of this package in one process agree.
const STATE_KEY = Symbol.for("fw-security.password-policy");
const state: PolicyState = ((globalThis as Record<symbol, PolicyState | undefined>)[STATE_KEY] ??= {
  request: new AsyncLocalStorage(),
  apps: new Set(),
});

/** Records an app's policy for calls made outside its requests; returns the function that forgets it. */
export function registerPasswordPolicy(policy: Required<PasswordOptions>): () => void {
  state.apps.add(policy);
  state.disagree = appsDisagree();
  return () => {
    state.apps.delete(policy);
    state.disagree = appsDisagree();
  };
}

/**
 * Runs the rest of a request with the app's policy as the current one. With one app in the process
 * (or several that agree), {@link currentPasswordPolicy} finds that policy without a request scope,
 * so none is opened: an AsyncLocalStorage scope turns on Node's promise hooks for the whole
 * process, a cost every promise of every request would pay.
 */
export function withPasswordPolicy<T>(policy: Required<PasswordOptions>, work: () => T): T {
  if (state.disagree === false && state.apps.has(policy)) return work();
  return state.request.run(policy, work);
}

/** True when the apps set up in this process have different policies (a request must say whose it is). */
function appsDisagree(): boolean {
  if (state.apps.size < 2) return false;
  const [first, ...others] = state.apps;
  return others.some((other) => !same(first!, other));
}

function same(a: PasswordOptions, b: PasswordOptions): boolean {
  return (
    a.algorithm === b.algorithm &&
    a.bcryptCost === b.bcryptCost &&
    a.argon2MemoryCost === b.argon2MemoryCost &&
    a.argon2TimeCost === b.argon2TimeCost &&
    a.argon2Parallelism === b.argon2Parallelism
  );
}

/**
 * The policy a call without one must use: the current request's app, else the apps set up in this
 * process when they agree, else the package defaults (no app at all). Apps that disagree, outside
 * a request, are an error rather than a guess (a hash with the wrong cost is silent).
 */
export function currentPasswordPolicy(): PasswordOptions {
  const inRequest = state.request.getStore();
  if (inRequest) return inRequest;
  const [first, ...others] = state.apps;
  if (!first) return {};
  if (others.some((other) => !same(first, other))) throw new E_PASSWORD_POLICY_AMBIGUOUS(state.apps.size);
  return first;
}
