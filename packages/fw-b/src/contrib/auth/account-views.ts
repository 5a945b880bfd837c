import { flash } from "@fwkit/data";
import { loginRequired, updateSessionAuth, verifyCurrentPassword } from "@fwkit/security";
import { z } from "zod";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { bodyOf, checkForm, fields, invalid } from "../forms.js";
import type { UserRow } from "../models.js";
import { contribOf, translatorOf } from "../runtime.js";
import { sendAddressInUse, sendVerification } from "./accounts.js";

/**
 * The account settings of the logged-in user: `/account` (name, language), `/account/email` (a
 * new address, changed once confirmed from the mail) and `/account/password` (with the current one).
 */
@route("/account")
@loginRequired
export class AuthAccount extends FwB {
  index() {
    const t = translatorOf(this.ctx);
    return { title: t("auth.account.title"), user: this.currentUser };
  }

  @request.post async post() {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const languages = runtime.i18n.languages;
    const schema = z.object({
      name: fields(t).text(100, { noMarkup: true }),
      locale: z
        .string({ error: t("form.required") })
        .refine((value) => value === "" || languages.includes(value), t("auth.account.badLocale")),
    });
    const input = await checkForm(ctx, schema);
    const user = this.currentUser as UserRow;
    await runtime.models.users.update(user.id, { name: input.name, locale: input.locale === "" ? null : input.locale });
    flash(ctx, "success", translatorOf(ctx)("auth.account.saved"));
    return this.redirect("/account", 303);
  }

  email() {
    return { title: translatorOf(this.ctx)("auth.email.title"), user: this.currentUser };
  }

  @request.post @route("/email") async saveEmail() {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const user = this.currentUser as UserRow;
    const f = fields(t);
    const input = await checkForm(
      ctx,
      z.object({ email: f.email, current_password: f.anyText.min(1, t("form.required")) }),
    );
    const body = bodyOf(ctx);
    // Under the account's failed-login limit (shared with /login): a stolen session cannot guess it.
    if (!user.password_hash || !(await verifyCurrentPassword(ctx, input.current_password, user.password_hash))) {
      throw invalid(t, { current_password: [t("auth.password.wrongCurrent")] }, body);
    }
    if (input.email === user.email) throw invalid(t, { email: [t("auth.email.same")] }, body);
    const taken = await runtime.models.users.withTrashed().findBy({ email: input.email } as Partial<UserRow>);
    if (taken) await sendAddressInUse(ctx, input.email);
    else await sendVerification(ctx, user, input.email);
    flash(ctx, "info", t("auth.email.sent", { email: input.email }));
    return this.redirect("/account", 303);
  }

  password() {
    return {
      title: translatorOf(this.ctx)("auth.password.title"),
      user: this.currentUser,
      hasPassword: Boolean((this.currentUser as UserRow).password_hash),
    };
  }

  @request.post @route("/password") async savePassword() {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const user = this.currentUser as UserRow;
    const f = fields(t);
    const schema = z
      .object({ current_password: z.unknown(), password: f.password, password_confirm: f.anyText })
      .refine((input) => input.password === input.password_confirm, {
        message: t("form.passwordMismatch"),
        path: ["password_confirm"],
      });
    const input = await checkForm(ctx, schema);
    const current = typeof input.current_password === "string" ? input.current_password : "";
    if (user.password_hash && !(await verifyCurrentPassword(ctx, current, user.password_hash))) {
      throw invalid(t, { current_password: [t("auth.password.wrongCurrent")] }, bodyOf(ctx));
    }
    const passwordHash = await runtime.hashPassword(input.password);
    await runtime.models.users.update(user.id, { password_hash: passwordHash });
    // Every other session of the account ends (a stolen one too); this one goes on.
    await updateSessionAuth(ctx, { ...user, password_hash: passwordHash });
    flash(ctx, "success", t("auth.password.changed"));
    return this.redirect("/account", 303);
  }
}
