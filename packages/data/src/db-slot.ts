/**
 * The request's knex instance (`ctx.state.db`) as a typed slot, apart from the plugin so the app kit
 * names it without loading the plugin's parts.
 */
import type { Knex } from "knex";
import { defineStateSlot } from "@fwkit/koa-host/plugin";

/** The key of `ctx.state` holding the knex instance. */
export const DB_STATE_KEY = "db";

/** The request's knex instance (`ctx.state.db`), a typed slot for the packages above. */
export const dbSlot = defineStateSlot<Knex>(DB_STATE_KEY);
