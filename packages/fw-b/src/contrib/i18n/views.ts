import { HTTPError } from "@fwkit/koa-host";
import { localeSlot } from "@fwkit/koa-host/plugin";
import { safeNextUrl } from "@fwkit/security/plugin";
import { LANGUAGE_SESSION_KEY } from "@fwkit/services/plugin";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { bodyOf } from "../forms.js";
import type { UserRow } from "../models.js";
import { contribOf, contribUser, translatorOf } from "../runtime.js";

/**
 * Where to go back to: the `next` path the form was on, when it is a path of this site
 * (`/account?tab=1`); anything else (another site, `//host`, `/\\host`, a scheme, dot segments
 * that resolve to `//host`) goes home. The login's `next` rule, so both check the same way.
 */
export function backTo(next: unknown): string {
  return safeNextUrl(next, "/");
}

/**
 * The language switcher of the contrib layout: `POST /language` with `language` keeps the choice
 * in the session and, for a logged-in user, in the account (`users.locale`), then goes back to
 * the page it came from (`next`, a path of this site). A language the app does not offer is a 400 that says so.
 */
@route("/language")
export class LanguageChoice extends FwB {
  @request.post async post() {
    const ctx = this.ctx;
    const runtime = contribOf(ctx);
    const body = bodyOf(ctx);
    const language = body["language"];
    if (typeof language !== "string" || !runtime.i18n.languages.includes(language)) {
      throw HTTPError.BadRequest(translatorOf(ctx)("auth.account.badLocale"));
    }
    (ctx as typeof ctx & { session: Record<string, unknown> }).session[LANGUAGE_SESSION_KEY] = language;
    const user = contribUser(ctx);
    if (user) await runtime.models.users.update(user.id, { locale: language } as Partial<UserRow>);
    // The request's language was decided before the switch: forget it so the redirect's flash
    // and anything translated after this point use the new one.
    localeSlot.set(ctx, undefined);
    return this.redirect(backTo(body["next"]), 303);
  }
}
