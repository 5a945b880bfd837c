/**
 * What the host keeps on a request for the packages above it, each as a typed slot on `ctx.state`
 * under the key apps already read (`ctx.state.requestId`, `ctx.state.route`...). The host owns these
 * because more than one package writes or reads them and the batteries never import each other: a
 * translations plugin (services, or fw-b's contrib) sets the language and translator, the host's
 * error pages and data's messages read them. A value only one battery writes and no other battery
 * reads (JWT claims, the services, the knex instance) is a slot of that battery instead.
 */
import type { Route } from "routing-kernel";
import { defineSlot, defineStateSlot } from "./slot.js";

/** A request's translator: the text of `key` in the request's language, the key itself when none. */
export type RequestTranslate = (key: string, values?: Readonly<Record<string, unknown>>) => string;

/** The request's id (`ctx.state.requestId`): the balancer's trusted one or a new one, the `reqId` of its log lines. */
export const requestIdSlot = defineStateSlot<string>("requestId");

/** The view route that answers the request (`ctx.state.route`), once the dispatcher (or the CSRF check) matched it. */
export const routeSlot = defineStateSlot<Route>("route");

/**
 * The logged-in user of the request (`ctx.state.currentUser`), as the app's `loadUser` gave it;
 * undefined when anonymous. The security battery writes it (and exports this slot as its own);
 * it lives here because another battery reads it too: realtime's channel authorisation.
 */
export const currentUserSlot = defineStateSlot<unknown>("currentUser");

/** The request's language (`ctx.state.locale`), once a translations plugin decided it. */
export const localeSlot = defineStateSlot<string>("locale");

/** The key of `ctx.state` holding the request's translator (apps and templates read it there). */
export const TRANSLATE_STATE_KEY = "translate";

/**
 * The request's translator (`ctx.state.translate`), put there by a translations plugin: the
 * built-in error page then titles itself with `errors.status.<code>` in the request's language.
 */
export const translatorSlot = defineStateSlot<RequestTranslate>(TRANSLATE_STATE_KEY);

/**
 * Set when the request's input was refused with a 4xx answer below the view (a validation error
 * answered as 422, below a rate limit that never sees it thrown): a limit with `countInvalid: false`
 * gives the request's count back. Not on `ctx.state`: only packages read it.
 */
export const inputRefusedSlot = defineSlot<boolean>("koa-host.input-refused");
