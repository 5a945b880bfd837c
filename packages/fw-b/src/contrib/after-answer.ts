import type { Context } from "koa";

/**
 * Runs `work` once the answer to `ctx`'s request has left: when the response is handed to the
 * connection (`finish`), or when the connection closes first. A page whose answer must not tell
 * whether an account exists (lost password, sign-up, a new address) does its account-dependent work
 * (the lookup, the token, the mail) here, so none of it is part of the answer's time. Work that
 * only starts in a later tick of the request still runs before the answer is written (the session
 * is saved first), which is why this waits for the response itself. A failure is logged with
 * `what`; the visitor has had the same answer either way.
 */
export function afterAnswer(ctx: Context, what: string, work: () => Promise<unknown>): void {
  const res = ctx.res;
  let started = false;
  const run = () => {
    if (started) return;
    started = true;
    res.off("finish", run);
    res.off("close", run);
    work().catch((error: unknown) => ctx.log.error({ err: error }, what));
  };
  if (res.writableFinished || res.destroyed) {
    setImmediate(run);
    return;
  }
  res.once("finish", run);
  res.once("close", run);
}
