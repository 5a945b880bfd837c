/**
 * @module conformance
 * The shared routing suite: `runConformance(adapter)` checks every rule of SPEC section 2 over
 * real HTTP against any framework built on routing-kernel. It knows a framework only through the
 * adapter it is given.
 */
export type {
  ClassOrMethodDecoratorLike,
  ConformanceAdapter,
  ConformanceDecorators,
  ConformanceResults,
  ConformanceSecurity,
  ConformanceServer,
  ConformanceSkip,
  ConformanceTemplate,
  MethodDecoratorLike,
} from "./adapter.js";
export { allowOf, send, type ClientResponse, type RequestOptions } from "./client.js";
export { runConformance } from "./run.js";
export * from "./errors.js";
