/**
 * The process an attacked app runs in: loads the scaffolded app's entry the way the CLI does, adds
 * a route by hand on the host's Koa router and a Koa middleware (as docs allow for custom servers), writes the
 * route table to `.suite-routes.json` in the app folder, creates the suite's
 * users when asked, listens on 127.0.0.1 and prints `LISTENING <port>`. The environment says
 * production (APP_ENV, SECRET_KEY), so this is the app's production configuration.
 * Usage: node --conditions=source --import tsx serve.ts <app folder>
 */
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { loadAppDefinition } from "@fwkit/cli";
import { routeListing } from "@fwkit/koa-host/operations";

const root = process.argv[2];
if (!root) {
  console.error("usage: serve.ts <app folder>");
  process.exit(2);
}

const definition = await loadAppDefinition(root);
const host = await definition.create();
// The route table, for the cases that attack every route (read from the app folder).
writeFileSync(join(root, ".suite-routes.json"), JSON.stringify(routeListing(host)));
// A route written by hand on the router, outside any class view.
host.router.post("/raw/koa-route", (ctx) => {
  ctx.body = "raw route changed state";
});
// Koa middleware added to the app by hand, after everything the host mounted.
host.koa.use(async (ctx, next) => {
  if (ctx.method !== "GET" && ctx.path === "/raw/middleware") {
    ctx.body = "raw middleware changed state";
    return;
  }
  await next();
});
const users = process.env["SUITE_USERS"];
if (users) {
  const { createContribModels } = await import("fw-b/contrib");
  const { connect } = await import("@fwkit/data");
  const { hashPassword } = await import("fw-b");
  const db = await connect(String(host.config["dbUrl"]), { root });
  const models = createContribModels();
  models.bind(db.knex);
  for (const spec of JSON.parse(users) as { username: string; email: string; password: string }[]) {
    const passwordHash = await hashPassword(spec.password, host.config as never);
    await models.users.create({
      username: spec.username,
      email: spec.email,
      name: spec.username,
      password_hash: passwordHash,
      role: "member",
      active: true,
      email_verified_at: new Date(),
      locale: null,
      last_login_at: null,
      deleted_at: null,
    } as never);
  }
  await db.close();
}
const server = await host.listen(0, "127.0.0.1");
console.log(`LISTENING ${(server.address() as AddressInfo).port}`);
const stop = () => void host.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
