import { FwA, request, response } from "fw-a";
import { csrfToken, getSession } from "security";
import { JSON_BODY, PAGE_DATA, SESSION_USER, TEXT_BODY, pairText } from "../workloads.js";

/** `GET /text/` (text) and `GET /page/` (the Nunjucks page, by convention). */
export class Index extends FwA {
  text() {
    return TEXT_BODY;
  }
  page() {
    return { ...PAGE_DATA };
  }
}

/** `GET /items/pair/:a/:b/`: two path parameters. */
export class Items extends FwA {
  pair(a: string, b: string) {
    return pairText(a, b);
  }
}

/** `GET /api/data/`: JSON. */
@response.json
export class Api extends FwA {
  data() {
    return JSON_BODY;
  }
}

/** The security scenario: log in (session + CSRF token), POST with CSRF, read the session. */
@response.json
export class Account extends FwA {
  login() {
    getSession(this.ctx)["user"] = SESSION_USER;
    return { token: csrfToken(this.ctx) };
  }
  @request.post
  submit() {
    const body = (this.ctx.request as { body?: { title?: unknown; count?: unknown } }).body ?? {};
    return { ok: true, user: getSession(this.ctx)["user"], title: body.title, count: body.count };
  }
  whoami() {
    return { user: getSession(this.ctx)["user"] ?? null };
  }
}
