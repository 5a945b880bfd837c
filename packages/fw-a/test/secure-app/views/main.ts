import { FwA, request, response, security } from "fw-a";
import { z } from "zod";

const Signup = z.object({ email: z.email(), name: z.string().min(2).max(50) });
let counter = 0;

export class Index extends FwA {
  form() {
    return {};
  }
  @request.post async save() {
    const data = await this.validate(Signup);
    return `saved ${data.name}`;
  }
  @request.post @security.csrfExempt hook() {
    return "hook ok";
  }
  @request.post async login() {
    await security.login(this.ctx, { id: 1, name: "Ann" });
    return "logged in";
  }
  @request.post async logout() {
    await security.logout(this.ctx);
    return "logged out";
  }
  @security.loginRequired secret() {
    return `hello ${(this.currentUser as { name: string }).name}`;
  }
  @response.cache(60) counted() {
    counter += 1;
    return `run ${counter}`;
  }
  token() {
    return security.issueToken(this.ctx, { sub: "ann" });
  }
  @security.bearerAuth whoami() {
    return `claims for ${String(this.claims?.["sub"])}`;
  }
  async mail(to: string) {
    const info = await this.services.mailer.sendMail({ to, template: "welcome", context: { name: "Ann" } });
    return `sent ${info.messageId ? "ok" : "?"}`;
  }
}

@response.json
export class Api extends FwA {
  @request.post async create() {
    const data = await this.validate(Signup);
    return { ok: true, data };
  }
  @security.loginRequired me() {
    return { user: this.currentUser };
  }
}
