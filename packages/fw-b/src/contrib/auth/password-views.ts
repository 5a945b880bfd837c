import { flash } from "@fwkit/data";
import { reply } from "@fwkit/koa-host";
import { z } from "zod";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { afterAnswer } from "../after-answer.js";
import { captchaFor, checkForm, fields } from "../forms.js";
import { lostPasswordLimits } from "../limits.js";
import { isActive, type UserRow } from "../models.js";
import { contribOf, translatorOf } from "../runtime.js";
import { sendAddressInUse, sendReset } from "./accounts.js";
import { consumeToken, peekToken, revokeTokens } from "./tokens.js";

/** `GET/POST /lost-password`: mails a reset link; the answer never tells whether the address has an account. */
@route("/lost-password")
export class AuthLostPassword extends FwB {
  async index() {
    return { title: translatorOf(this.ctx)("auth.lost.title"), captcha: await captchaFor(this.ctx) };
  }

  @request.post @lostPasswordLimits async post() {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const input = await checkForm(ctx, z.object({ email: fields(t).email }), { captcha: true });
    const runtime = contribOf(ctx);
    // After the answer has left: it does the same work whether the address has an account or not
    // (the lookup, the token and the mail all run later), so its timing tells nothing.
    afterAnswer(ctx, "fw-b contrib: the password-reset link was not made", async () => {
      const user = await runtime.models.users.findBy({ email: input.email } as Partial<UserRow>);
      if (user && isActive(user)) await sendReset(ctx, user);
    });
    flash(ctx, "info", t("auth.lost.sent"));
    return this.redirect("/lost-password", 303);
  }
}

/** `GET/POST /reset-password/:token`: a new password from a mailed link (single use, expiring). */
@route("/reset-password/:token")
export class AuthResetPassword extends FwB {
  async index(token: string) {
    const t = translatorOf(this.ctx);
    const row = await peekToken(contribOf(this.ctx).models, "reset", token);
    if (!row) return reply({ title: t("auth.reset.invalidTitle"), invalid: true }, { status: 400 });
    return { title: t("auth.reset.title"), invalid: false };
  }

  @request.post async post(token: string) {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const f = fields(t);
    const schema = z
      .object({ password: f.password, password_confirm: f.anyText })
      .refine((input) => input.password === input.password_confirm, {
        message: t("form.passwordMismatch"),
        path: ["password_confirm"],
      });
    const input = await checkForm(ctx, schema);
    const row = await consumeToken(runtime.models, "reset", token);
    const user = row ? await runtime.models.users.find(row.user_id) : undefined;
    if (!row || !user || !isActive(user))
      return reply({ title: t("auth.reset.invalidTitle"), invalid: true }, { status: 400 });
    const hash = await runtime.hashPassword(input.password);
    // The link came to the account's inbox: that confirms the address as well.
    await runtime.models.users.update(user.id, {
      password_hash: hash,
      email_verified_at: user.email_verified_at ?? new Date(),
    });
    await revokeTokens(runtime.models, user.id, "reset");
    flash(ctx, "success", t("auth.reset.done"));
    return this.redirect(runtime.loginUrl, 303);
  }
}

/** `GET /verify-email/:token`: confirms an address (a new account's, or a new address of an account). */
@route("/verify-email/:token")
export class AuthVerifyEmail extends FwB {
  async index(token: string) {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const { users } = runtime.models;
    const row = await consumeToken(runtime.models, "verify", token);
    const user = row ? await users.find(row.user_id) : undefined;
    if (!row || !user || !isActive(user))
      return reply({ title: t("auth.verify.invalidTitle"), invalid: true }, { status: 400 });
    const email = row.email ?? user.email;
    if (email !== user.email) {
      const other = await users.withTrashed().findBy({ email } as Partial<UserRow>);
      if (other && other.id !== user.id) {
        await sendAddressInUse(ctx, email);
        return reply({ title: t("auth.verify.invalidTitle"), invalid: true }, { status: 400 });
      }
    }
    await users.update(user.id, { email, email_verified_at: new Date() });
    flash(ctx, "success", t(email === user.email ? "auth.verify.done" : "auth.verify.changed", { email }));
    return this.redirect(this.currentUser ? "/account" : runtime.loginUrl, 303);
  }
}
