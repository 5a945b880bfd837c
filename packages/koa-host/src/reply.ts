/** Options of a {@link Reply}: the status and headers to send with a body. */
export interface ReplyInit {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A view result that carries a status and headers along with its body; the body is then answered
 * by the framework's usual rules (text, template data, JSON...). `body: undefined` with a status
 * of 204 or 3xx sends no body.
 */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly init: ReplyInit = {},
  ) {}
}

/** A redirect result (302 by default). */
export class Redirect extends Reply {
  constructor(
    readonly location: string,
    status = 302,
  ) {
    super(undefined, { status, headers: { Location: location } });
  }
}

/** Makes a reply: `reply({ id }, { status: 201, headers: { Location: "/posts/1" } })`. */
export function reply(body: unknown, init: ReplyInit = {}): Reply {
  return new Reply(body, init);
}

/** Makes a redirect result: `return redirect("/login")`. */
export function redirect(location: string, status = 302): Redirect {
  return new Redirect(location, status);
}
