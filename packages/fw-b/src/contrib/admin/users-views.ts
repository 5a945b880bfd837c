import type { Context } from "koa";
import { flash, pageParams, paginate } from "@fwkit/data";
import { HTTPError } from "@fwkit/koa-host";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { sendReset } from "../auth/accounts.js";
import { bodyOf } from "../forms.js";
import type { UserRow } from "../models.js";
import { requireAdmin, roleLevel } from "../roles.js";
import { contribOf, contribUser, translatorOf } from "../runtime.js";

const STATUSES = ["all", "active", "inactive", "deleted"] as const;

/** The id from a URL: digits only, else 404 (never a database error). */
export function idFrom(value: string): number {
  if (!/^\d{1,12}$/.test(value)) throw HTTPError.NotFound();
  return Number(value);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The user an admin acts on, checked: it exists, and the admin outranks or equals it (never oneself for blocking actions). */
async function target(ctx: Context, id: string, options: { notSelf?: boolean } = {}): Promise<UserRow> {
  const runtime = contribOf(ctx);
  const t = translatorOf(ctx);
  const user = await runtime.models.users.withTrashed().find(idFrom(id));
  if (!user) throw HTTPError.NotFound(t("admin.users.notFound"));
  // The admin area is role-guarded: a user is logged in here.
  const me = contribUser(ctx)!;
  const roles = runtime.settings.auth!.roles;
  if (options.notSelf && user.id === me.id) throw HTTPError.Forbidden(t("admin.users.notSelf"));
  if (user.id !== me.id && roleLevel(roles, user.role) > roleLevel(roles, me.role))
    throw HTTPError.Forbidden(t("admin.users.outranked"));
  return user;
}

/**
 * User management under `/admin/users`: a searchable, paginated list; a user's page; activate,
 * deactivate, soft-delete, restore, change role (never above one's own) and mail a reset link.
 */
@route("/admin/users")
@requireAdmin
export class AdminUsers extends FwB {
  async index() {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const rawQ = ctx.query["q"];
    const q = typeof rawQ === "string" ? rawQ.trim().slice(0, 100) : "";
    const rawStatus = ctx.query["status"];
    const status = STATUSES.find((s) => s === rawStatus) ?? "all";
    const { page, perPage } = pageParams(ctx.query, { defaultPerPage: 20, maxPerPage: 100 });
    const base = status === "deleted" ? runtime.models.users.onlyTrashed() : runtime.models.users;
    const query = base.query().orderBy("id");
    if (status === "active") query.where({ active: true });
    if (status === "inactive") query.where({ active: false });
    if (q) {
      const like = `%${escapeLike(q.toLowerCase())}%`;
      query.where((w) =>
        w
          .whereRaw("lower(username) like ? escape '\\'", [like])
          .orWhereRaw("lower(email) like ? escape '\\'", [like])
          .orWhereRaw("lower(name) like ? escape '\\'", [like]),
      );
    }
    const users = await paginate<UserRow, UserRow>(query, {
      page,
      perPage,
      baseUrl: "/admin/users",
      query: ctx.query,
      map: (row) => base.hydrate(row),
    });
    return { title: t("admin.users.title"), users, q, status, statuses: STATUSES };
  }

  @route("/:id") async view(id: string) {
    const ctx = this.ctx;
    const runtime = contribOf(ctx);
    const user = await runtime.models.users.withTrashed().find(idFrom(id));
    if (!user) throw HTTPError.NotFound(translatorOf(ctx)("admin.users.notFound"));
    const me = this.currentUser as UserRow;
    const roles = runtime.settings.auth!.roles;
    const assignable = Object.keys(roles).filter((role) => roleLevel(roles, role) <= roleLevel(roles, me.role));
    return { title: user.username, user, roles: assignable, self: user.id === me.id };
  }

  @request.post @route("/:id/activate") async activate(id: string) {
    return this.#change(id, { active: true }, "admin.users.activated");
  }

  @request.post @route("/:id/deactivate") async deactivate(id: string) {
    return this.#change(id, { active: false }, "admin.users.deactivated", true);
  }

  @request.post @route("/:id/delete") async remove(id: string) {
    const user = await target(this.ctx, id, { notSelf: true });
    await contribOf(this.ctx).models.users.delete(user.id);
    flash(this.ctx, "success", translatorOf(this.ctx)("admin.users.deleted", { name: user.username }));
    return this.redirect(`/admin/users/${user.id}`, 303);
  }

  @request.post @route("/:id/restore") async restore(id: string) {
    const user = await target(this.ctx, id);
    if (user.deleted_at) await contribOf(this.ctx).models.users.restore(user.id);
    flash(this.ctx, "success", translatorOf(this.ctx)("admin.users.restored", { name: user.username }));
    return this.redirect(`/admin/users/${user.id}`, 303);
  }

  @request.post @route("/:id/role") async role(id: string) {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const user = await target(ctx, id, { notSelf: true });
    const roles = runtime.settings.auth!.roles;
    const role = bodyOf(ctx)["role"];
    const me = this.currentUser as UserRow;
    if (typeof role !== "string" || !Object.hasOwn(roles, role)) {
      flash(ctx, "error", t("admin.users.badRole"));
    } else if (roleLevel(roles, role) > roleLevel(roles, me.role)) {
      flash(ctx, "error", t("admin.users.roleTooHigh"));
    } else {
      await runtime.models.users.withTrashed().update(user.id, { role });
      flash(ctx, "success", t("admin.users.roleChanged", { name: user.username, role }));
    }
    return this.redirect(`/admin/users/${user.id}`, 303);
  }

  @request.post @route("/:id/send-reset") async sendResetLink(id: string) {
    const user = await target(this.ctx, id);
    const t = translatorOf(this.ctx);
    const sent = await sendReset(this.ctx, user);
    flash(
      this.ctx,
      sent ? "success" : "error",
      t(sent ? "admin.users.resetSent" : "admin.users.resetFailed", { email: user.email }),
    );
    return this.redirect(`/admin/users/${user.id}`, 303);
  }

  async #change(id: string, patch: Partial<UserRow>, message: string, notSelf = false) {
    const user = await target(this.ctx, id, { notSelf });
    await contribOf(this.ctx).models.users.withTrashed().update(user.id, patch);
    flash(this.ctx, "success", translatorOf(this.ctx)(message, { name: user.username }));
    return this.redirect(`/admin/users/${user.id}`, 303);
  }
}
