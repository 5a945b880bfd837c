import type { Context } from "koa";
import { DeliverMail } from "@fwkit/app-kit";
import { JOBS_PLUGIN_NAME, type JobsPlugin } from "@fwkit/jobs";
import { publicUrl, runtimeOf } from "@fwkit/koa-host/plugin";
import { contribOf, translatorOf } from "./runtime.js";

/**
 * The absolute URL of a path of this app, for links in mails and OAuth redirects: config
 * `baseUrl` (`BASE_URL`, required in production), else the server's own address. Never the
 * request's Host or X-Forwarded-Host: the client writes those.
 */
export function absoluteUrl(ctx: Context, path: string): string {
  const host = runtimeOf(ctx);
  return publicUrl(ctx, { baseUrl: contribOf(ctx).baseUrl, env: host.config.env, basePath: host.basePath }, path);
}

/** The app's jobs plugin when its queue is on Redis (mails then survive an SMTP outage), else undefined. */
function redisJobs(ctx: Context): JobsPlugin | undefined {
  const jobs = runtimeOf(ctx).plugins.find((plugin) => plugin.name === JOBS_PLUGIN_NAME) as JobsPlugin | undefined;
  return jobs?.kind === "bullmq" ? jobs : undefined;
}

/**
 * Sends a contrib mail (`templates/contrib/<module>/mail/<name>.*`, overridable in the app) in the
 * request's language. With a Redis queue (`QUEUE_URL=redis://...`) the mail is rendered here and
 * handed to a worker as a job, retried while the mail server is down and kept as failed after
 * (never lost); otherwise, or when the queue cannot take it, it is sent in the request. A failure
 * is logged and reported as false: the page still answers, and says nothing that would tell
 * whether an account exists.
 */
export async function sendContribMail(
  ctx: Context,
  to: string | readonly string[],
  template: string,
  context: Record<string, unknown>,
  extra: { replyTo?: string } = {},
): Promise<boolean> {
  const runtime = contribOf(ctx);
  const mail = { to, template: `contrib/${template}`, context: { t: translatorOf(ctx), ...context }, ...extra };
  try {
    const jobs = redisJobs(ctx);
    if (jobs) {
      const composed = await runtime.mailer().compose(mail);
      try {
        await jobs.dispatch(DeliverMail, composed);
        return true;
      } catch (error) {
        // Redis is down: sending now is better than dropping the mail.
        ctx.log.warn(
          { err: error, template },
          `fw-b contrib: the ${template} mail could not be queued; sending it in the request`,
        );
        await runtime.mailer().deliver(composed);
        return true;
      }
    }
    await runtime.mailer().sendMail(mail);
    return true;
  } catch (error) {
    ctx.log.error({ err: error, template }, `fw-b contrib: the ${template} mail was not sent`);
    return false;
  }
}
