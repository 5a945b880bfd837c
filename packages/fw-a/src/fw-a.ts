import { HostView } from "koa-host";

/**
 * The base class of framework A's views: every exported subclass in `views/` becomes a group of
 * routes (class name -> prefix, method -> segment, parameters -> more segments). A new instance
 * serves each request, with the Koa context as `this.ctx`.
 */
export class FwA extends HostView {}
