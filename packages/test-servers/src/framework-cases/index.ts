/**
 * @module test-servers/framework-cases
 * Tests of rules both frameworks follow that need the repository's test tools (a child process
 * that records loaded modules, OpenAPI validators and tsc), so they cannot be conformance cases:
 * written once here, each registered by both frameworks' test files with what differs.
 */
export { BATTERY_PARTS, DRIVER_PACKAGES, lazyImportCases, type LazyImportSubject } from "./lazy-imports.js";
export { type ResourceGeneratorSubject, resourceGeneratorCases } from "./resource-generator.js";
export { resourceReferenceCases } from "./resource-references.js";
export { resourceLiveCases } from "./resource-live.js";
export { openApiCases, type OpenApiContext, type OpenApiHost, type OpenApiSubject } from "./openapi.js";
export {
  testClientCases,
  type TestClientAnswer,
  type TestClientLike,
  type TestClientRequest,
  type TestClientSubject,
} from "./testing-client.js";
export { realtimeCases, type RealtimeHost, type RealtimeSubject } from "./realtime.js";
