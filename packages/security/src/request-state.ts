/**
 * What the security battery keeps on a request for the rest of the app, as typed slots on
 * `ctx.state` under the keys apps and templates read (`ctx.state.currentUser`, `ctx.state.jwt`).
 * Packages above (the app kit, the frameworks) read them through these slots or `currentUser(ctx)`;
 * the host learns the user's id for its log line through the plugin's `requestLogFields()`.
 */
import { currentUserSlot, defineStateSlot } from "@fwkit/koa-host/plugin";
import type { JWTPayload } from "jose";

/**
 * The logged-in user of the request (`ctx.state.currentUser`), as the app's `loadUser` gave it;
 * undefined when anonymous. The slot is declared by the host, since the realtime battery reads it too.
 */
export { currentUserSlot };

/** The verified claims of the request's bearer JWT (`ctx.state.jwt`), when a route required one. */
export const claimsSlot = defineStateSlot<JWTPayload>("jwt");
