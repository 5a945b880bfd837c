/**
 * @module fw-a/testing
 * Test factories for fw-a apps: in-process requests (`inject`), a listening app on 127.0.0.1
 * (`listenForTest`), and the adapter the shared conformance suite runs against.
 */
export { inject, listenForTest, type InjectedResponse } from "@fwkit/koa-host/testing";
export { conformanceAdapter } from "./conformance.js";
