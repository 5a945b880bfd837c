import { defineConventions, type Conventions } from "routing-kernel";
import { HOST_VIEW_FIELDS } from "@fwkit/koa-host/plugin";
import { FwA } from "./fw-a.js";

/** Framework A's routing conventions: generated paths end with `/` (`/blog/comments/42/`). */
export const conventions: Conventions = defineConventions({
  baseClass: FwA,
  trailingSlash: true,
  reservedNames: HOST_VIEW_FIELDS,
});
