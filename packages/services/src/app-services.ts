/**
 * What this battery adds to a job's `context.services` (the mailer, storage, cache...), declared on
 * `AppServices` of `@fwkit/koa-host` by module augmentation; the root entry re-exports this file so
 * an app that imports the battery gets the declaration.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import type { Services } from "./services-slot.js";

declare module "@fwkit/koa-host" {
  /** A job's `context.services`: the mailer, storage, cache... this battery builds. */
  interface AppServices extends Services {}
}
