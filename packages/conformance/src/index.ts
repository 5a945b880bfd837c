/**
 * @module conformance
 * The shared suite: `runConformance(adapter)` checks every routing rule of docs/routing.md over
 * real HTTP against any framework built on routing-kernel, and with the adapter's optional parts
 * the shared rules of sessions and CSRF, errors, results and CLI commands. It knows a framework
 * only through the adapter it is given.
 */
export type {
  ClassOrMethodDecoratorLike,
  ConformanceAdapter,
  ConformanceAppOptions,
  ConformanceCli,
  ConformanceCommands,
  ConformanceDecorators,
  ConformanceHandler,
  HandlerContext,
  ConformanceResults,
  ConformanceSecurity,
  ConformanceSchemas,
  ConformanceServer,
  ConformanceSkip,
  ConformanceTemplate,
  MethodDecoratorLike,
} from "./adapter.js";
export { allowOf, send, type ClientResponse, type RequestOptions } from "./client.js";
export { runConformance } from "./run.js";
export * from "./errors.js";
