import { belongsTo, defineModel, FwB, manyToMany, request } from "fw-b";
import { renderJson } from "fw-b/decorators";
import type { Knex } from "knex";
import { csrfToken, getSession } from "@fwkit/security";
import { JSON_BODY, PAGE_DATA, SESSION_USER, TEXT_BODY, pairText } from "../workloads.js";
import { DB_ROW, DB_TABLE } from "./db-fixture.js";
import { listByHand, listThroughModels } from "./relations-fixture.js";

const listTasks = listThroughModels({ defineModel, belongsTo, manyToMany });

/** `GET /text` (text) and `GET /pug-page` (the Pug page, by convention). */
export class Index extends FwB {
  text() {
    return TEXT_BODY;
  }
  pugPage() {
    return { ...PAGE_DATA };
  }
}

/** `GET /items/pair/:a/:b`: two path parameters. */
export class Items extends FwB {
  pair(a: string, b: string) {
    return pairText(a, b);
  }
}

/** `GET /api/data`: JSON. */
@renderJson
export class Api extends FwB {
  data() {
    return JSON_BODY;
  }
}

/** The security and db scenarios: log in (session + CSRF token), POST with CSRF, read the session, read a row. */
@renderJson
export class Account extends FwB {
  login() {
    getSession(this.ctx)["user"] = SESSION_USER;
    return { token: csrfToken(this.ctx) };
  }
  @request.post
  submit() {
    const body = (this.ctx.request as { body?: { title?: unknown; count?: unknown } }).body ?? {};
    return { ok: true, user: getSession(this.ctx)["user"], title: body.title, count: body.count };
  }
  whoami() {
    return { user: getSession(this.ctx)["user"] ?? null };
  }
  /** The db scenario: the user from the Redis session and one row from PostgreSQL. */
  async profile() {
    const db = this.ctx.state["db"] as Knex;
    const item = await db(DB_TABLE).select("id", "name", "price").where({ id: DB_ROW.id }).first();
    return { user: getSession(this.ctx)["user"] ?? null, item: item ?? null };
  }
  /** The db scenario: 100 tasks with their project and assignees, through the models' preloads. */
  async tasks() {
    return { tasks: await listTasks(this.ctx.state["db"] as Knex) };
  }
  /** The db scenario: the same list written by hand with knex joins (the baseline). */
  async joined() {
    return { tasks: await listByHand(this.ctx.state["db"] as Knex) };
  }
}
