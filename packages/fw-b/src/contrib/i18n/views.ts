import { HTTPError } from "koa-host";
import { LANGUAGE_SESSION_KEY } from "services";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { bodyOf } from "../forms.js";
import type { UserRow } from "../models.js";
import { contribOf, contribUser, translatorOf } from "../runtime.js";

/** Where to go back to: the page the form was on when it is on this site, else the home page. */
function backTo(referer: string | undefined, host: string): string {
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return url.host === host && (url.protocol === "http:" || url.protocol === "https:") ? `${url.pathname}${url.search}` : "/";
  } catch {
    return "/";
  }
}

/**
 * The language switcher of the contrib layout: `POST /language` with `language` keeps the choice
 * in the session and, for a logged-in user, in the account (`users.locale`), then goes back to
 * the page it came from. A language the app does not offer is a 400 that says so.
 */
@route("/language")
export class LanguageChoice extends FwB {
  @request.post async post() {
    const ctx = this.ctx;
    const runtime = contribOf(ctx);
    const language = bodyOf(ctx)["language"];
    if (typeof language !== "string" || !runtime.i18n.languages.includes(language)) {
      throw HTTPError.BadRequest(translatorOf(ctx)("auth.account.badLocale"));
    }
    (ctx as typeof ctx & { session: Record<string, unknown> }).session[LANGUAGE_SESSION_KEY] = language;
    const user = contribUser(ctx);
    if (user) await runtime.models.users.update(user.id, { locale: language } as Partial<UserRow>);
    // The request's language was decided before the switch: forget it so the redirect's flash
    // and anything translated after this point use the new one.
    delete ctx.state["locale"];
    return this.redirect(backTo(ctx.get("Referer"), ctx.host), 303);
  }
}
