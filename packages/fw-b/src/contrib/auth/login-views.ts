import { flash } from "@fwkit/data";
import { isUniqueViolation } from "@fwkit/data/plugin";
import { HTTPError } from "@fwkit/koa-host";
import { attemptLogin, logout, needsRehash } from "@fwkit/security";
import { safeNextUrl } from "@fwkit/security/plugin";
import { z } from "zod";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { bodyOf, captchaFor, checkForm, fields, invalid } from "../forms.js";
import { afterAnswer } from "../after-answer.js";
import { signupLimits } from "../limits.js";
import { isActive, type UserRow } from "../models.js";
import { contribOf, translatorOf } from "../runtime.js";
import { findByLogin, sendAddressInUse, sendVerification } from "./accounts.js";

/** `GET /login` shows the form (never logging anyone out); `POST /login` logs in by username or email. */
@route("/login")
export class AuthLogin extends FwB {
  index() {
    const t = translatorOf(this.ctx);
    const next = safeNextUrl(this.ctx.query["next"], "");
    return { title: t("auth.login.title"), next, already: Boolean(this.currentUser) };
  }

  @request.post async post() {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const auth = contribOf(ctx).settings.auth!;
    const f = fields(t);
    const input = await checkForm(
      ctx,
      z.object({ identifier: f.text(254), password: f.anyText.min(1, t("form.required")) }),
    );
    const body = bodyOf(ctx);
    let refusal: string | undefined;
    // The manager finds the account first (the limit counts per account, whichever name is typed)
    // and verifies one hash on every path: the account's, or its dummy of the same cost.
    const user = await attemptLogin<UserRow>(
      ctx,
      input.identifier,
      {
        find: (identifier) => findByLogin(ctx, identifier),
        password: input.password,
        passwordHash: (found) => found.password_hash,
        allow: async (found) => {
          if (!isActive(found)) {
            refusal = t("auth.login.inactive");
            return false;
          }
          if (auth.requireVerification && !found.email_verified_at) {
            await sendVerification(ctx, found);
            refusal = t("auth.login.unverified");
            return false;
          }
          // A hash of an older algorithm or cost is upgraded while the password is at hand (before
          // login, so the remember-me cookie carries the new hash): every stored hash then costs
          // what the unknown account's dummy costs.
          if (found.password_hash && needsRehash(found.password_hash)) {
            found.password_hash = await contribOf(ctx).hashPassword(input.password);
            await contribOf(ctx).models.users.update(found.id, { password_hash: found.password_hash });
          }
          return true;
        },
      },
      { remember: body["remember"] === "1" || body["remember"] === "on" },
    );
    if (!user) throw invalid(t, { _form: [refusal ?? t("auth.login.failed")] }, body);
    await contribOf(ctx).models.users.update(user.id, { last_login_at: new Date() });
    // In the logged-in user's language (`t` is the visitor's), the language of the page it lands on.
    flash(ctx, "success", translatorOf(ctx)("auth.login.welcome", { name: user.name || user.username }));
    return this.redirect(safeNextUrl(body["next"], auth.afterLogin), 303);
  }
}

/** `GET /logout` asks to confirm; `POST /logout` logs out (a form, so no other site can log you out). */
@route("/logout")
export class AuthLogout extends FwB {
  index() {
    if (!this.currentUser) return this.redirect("/");
    return { title: translatorOf(this.ctx)("auth.logout.title") };
  }

  @request.post async post() {
    await logout(this.ctx);
    flash(this.ctx, "info", translatorOf(this.ctx)("auth.logout.done"));
    return this.redirect("/", 303);
  }
}

/** `GET /signup` and `POST /signup`: a new account; a confirmation link is mailed. */
@route("/signup")
export class AuthSignup extends FwB {
  async index() {
    const runtime = contribOf(this.ctx);
    if (!runtime.settings.auth?.signup) throw HTTPError.NotFound(translatorOf(this.ctx)("auth.signup.closed"));
    return { title: translatorOf(this.ctx)("auth.signup.title"), captcha: await captchaFor(this.ctx) };
  }

  @request.post @signupLimits async post() {
    const ctx = this.ctx;
    const runtime = contribOf(ctx);
    const t = translatorOf(ctx);
    const auth = runtime.settings.auth!;
    if (!auth.signup) throw HTTPError.NotFound(t("auth.signup.closed"));
    const f = fields(t);
    const schema = z
      .object({
        username: f.username,
        email: f.email,
        name: f.text(100, { noMarkup: true }),
        password: f.password,
        password_confirm: f.anyText,
      })
      .refine((input) => input.password === input.password_confirm, {
        message: t("form.passwordMismatch"),
        path: ["password_confirm"],
      });
    const input = await checkForm(ctx, schema, { captcha: true });
    const body = bodyOf(ctx);
    const { users } = runtime.models;
    if (await users.withTrashed().findBy({ username: input.username } as Partial<UserRow>))
      throw invalid(t, { username: [t("auth.signup.usernameTaken")] }, body);
    const sent = t("auth.signup.checkMail", { email: input.email });
    // Hashed before the address is looked up: a taken address costs the same work as a new one.
    const passwordHash = await runtime.hashPassword(input.password);
    if (await users.withTrashed().findBy({ email: input.email } as Partial<UserRow>)) {
      // The same answer as for a new address: the form must not tell who has an account. Both
      // mails are sent once the answer has left, so neither path's timing carries its mail.
      const email = input.email;
      afterAnswer(ctx, "fw-b contrib: the address-in-use notice was not sent", () => sendAddressInUse(ctx, email));
      flash(ctx, "info", sent);
      return this.redirect(runtime.loginUrl, 303);
    }
    let user: UserRow;
    try {
      user = await users.create({
        username: input.username,
        email: input.email,
        name: input.name,
        password_hash: passwordHash,
        role: auth.defaultRole,
        active: true,
        email_verified_at: null,
        locale: null,
        last_login_at: null,
        deleted_at: null,
      });
    } catch (error) {
      if (!isUniqueViolation(error) && (error as { code?: unknown }).code !== "E_UNIQUE_VIOLATION") throw error;
      throw invalid(t, { username: [t("auth.signup.usernameTaken")] }, body);
    }
    const created = user;
    afterAnswer(ctx, "fw-b contrib: the confirmation link was not sent", () => sendVerification(ctx, created));
    flash(ctx, "info", sent);
    return this.redirect(runtime.loginUrl, 303);
  }
}
