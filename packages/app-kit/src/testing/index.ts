/**
 * @module @fwkit/app-kit/testing
 * The test factories of a framework made with `defineFramework`, written once: its `testClient`
 * (in-memory requests with cookies, the CSRF token and `loginAs`) and the adapter the shared
 * conformance suite runs against. A framework gives only what differs: its base class and
 * decorators, its result helpers, its template files and its CLI's names.
 */
export { frameworkConformance, type ConformanceParts } from "./conformance.js";
export { frameworkTestClient, type AppTestClient, type TestAppOptions } from "./client.js";
export type { MailFake, MailFilter } from "./mail.js";
