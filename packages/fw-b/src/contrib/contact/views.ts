import { flash, pageParams, paginate } from "@fwkit/data";
import { HTTPError } from "@fwkit/koa-host";
import { z } from "zod";
import { FwB } from "../../base.js";
import { route } from "../../decorators/route.js";
import { request } from "../../request.js";
import { idFrom } from "../admin/users-views.js";
import { captchaFor, checkForm, fields } from "../forms.js";
import { contactLimits } from "../limits.js";
import { absoluteUrl, sendContribMail } from "../mail.js";
import type { ContactMessageRow, UserRow } from "../models.js";
import { requireAdmin } from "../roles.js";
import { contribOf, translatorOf } from "../runtime.js";

/** `GET/POST /contact`: the contact form; the message is stored, then mailed to the recipients. */
@route("/contact")
export class ContactForm extends FwB {
  async index() {
    const t = translatorOf(this.ctx);
    const user = this.currentUser as UserRow | undefined;
    return {
      title: t("contact.title"),
      captcha: await captchaFor(this.ctx),
      defaults: user ? { name: user.name || user.username, email: user.email } : {},
    };
  }

  @request.post @contactLimits async post() {
    const ctx = this.ctx;
    const t = translatorOf(ctx);
    const runtime = contribOf(ctx);
    const f = fields(t);
    const schema = z.object({
      name: f.text(100, { noMarkup: true }),
      email: f.email,
      subject: f.text(150),
      message: f.text(5000, { multiline: true, min: 10 }),
    });
    const input = await checkForm(ctx, schema, { captcha: true });
    const user = this.currentUser as UserRow | undefined;
    const stored = await runtime.models.contactMessages.create({ ...input, user_id: user?.id ?? null, read_at: null });
    const recipients = runtime.settings.contact!.recipients;
    await sendContribMail(
      ctx,
      recipients,
      "contact/message",
      { message: stored, link: absoluteUrl(ctx, `/admin/messages/${stored.id}`) },
      { replyTo: input.email },
    );
    flash(ctx, "success", t("contact.sent"));
    return this.redirect("/contact", 303);
  }
}

/** `/admin/messages`: the contact messages, newest first; opening one marks it read. */
@route("/admin/messages")
@requireAdmin
export class AdminMessages extends FwB {
  async index() {
    const ctx = this.ctx;
    const { contactMessages } = contribOf(ctx).models;
    const { page, perPage } = pageParams(ctx.query, { defaultPerPage: 20 });
    const messages = await paginate<ContactMessageRow, ContactMessageRow>(
      contactMessages.query().orderBy("id", "desc"),
      {
        page,
        perPage,
        baseUrl: "/admin/messages",
        query: ctx.query,
        map: (row) => contactMessages.hydrate(row),
      },
    );
    return { title: translatorOf(ctx)("admin.messages.title"), messages };
  }

  @route("/:id") async view(id: string) {
    const { contactMessages } = contribOf(this.ctx).models;
    const message = await contactMessages.find(idFrom(id));
    if (!message) throw HTTPError.NotFound(translatorOf(this.ctx)("admin.messages.notFound"));
    if (!message.read_at) await contactMessages.update(message.id, { read_at: new Date() });
    return { title: message.subject, message };
  }
}
