import { flash } from "@fwkit/data";
import { HTTPError } from "@fwkit/koa-host";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { bodyOf } from "../forms.js";
import { requireAdmin } from "../roles.js";
import { contribOf, translatorOf } from "../runtime.js";

/** `GET /admin`: the admin home, with counts and the maintenance state. */
@route("/admin")
@requireAdmin
export class AdminHome extends FwB {
  async index() {
    const runtime = contribOf(this.ctx);
    const t = translatorOf(this.ctx);
    const { users, contactMessages } = runtime.models;
    return {
      title: t("admin.home.title"),
      counts: {
        users: await users.count(),
        inactive: Number(
          (await users.query().where({ active: false }).count<{ n: number | string }[]>({ n: "*" }))[0]?.n ?? 0,
        ),
        deleted: await users.onlyTrashed().count(),
        messages: runtime.settings.contact ? await contactMessages.count() : undefined,
        unread: runtime.settings.contact
          ? Number(
              (await contactMessages.query().whereNull("read_at").count<{ n: number | string }[]>({ n: "*" }))[0]?.n ??
                0,
            )
          : undefined,
      },
      maintenance: runtime.maintenance ? await runtime.maintenance.isOn() : undefined,
    };
  }
}

/** `GET/POST /admin/maintenance`: shows and flips the maintenance switch (for every process). */
@route("/admin/maintenance")
@requireAdmin
export class AdminMaintenance extends FwB {
  async index() {
    const runtime = contribOf(this.ctx);
    if (!runtime.maintenance) throw HTTPError.NotFound();
    return { title: translatorOf(this.ctx)("admin.maintenance.title"), on: await runtime.maintenance.isOn() };
  }

  @request.post async post() {
    const runtime = contribOf(this.ctx);
    const t = translatorOf(this.ctx);
    if (!runtime.maintenance) throw HTTPError.NotFound();
    const state = bodyOf(this.ctx)["state"];
    if (state !== "on" && state !== "off") throw HTTPError.BadRequest(t("admin.maintenance.badState"));
    await runtime.maintenance.set(state === "on");
    flash(
      this.ctx,
      state === "on" ? "warning" : "success",
      t(state === "on" ? "admin.maintenance.nowOn" : "admin.maintenance.nowOff"),
    );
    return this.redirect("/admin/maintenance", 303);
  }
}
