/**
 * The jobs battery: the app's jobs (`jobs/`) on the queue `QUEUE_URL` names, for both frameworks.
 * It also carries the kit's own jobs: a mail composed in a request and delivered by a worker
 * (retried while the mail server is down), and a signal delivery to a receiver connected with
 * `{ queued: true }`.
 */
import { E_JOB_OPTION_INVALID, Job, JOBS_CONFIG_KEYS, jobsPlugin, type Dispatcher, type JobContext } from "@fwkit/jobs";
import type { ComposedMail, ServicesPlugin } from "@fwkit/services";
import { defaultRegistry } from "@fwkit/services/plugin";
import type { BatteryContext } from "./battery.js";
import { defineBattery } from "./battery.js";

// The services plugin of each app being assembled, so its jobs reach the app's mailer.
const servicesOfApp = new WeakMap<BatteryContext, ServicesPlugin>();

/** Records the services plugin built for an app (the services battery calls it). */
export function rememberServices(context: BatteryContext, plugin: ServicesPlugin): ServicesPlugin {
  servicesOfApp.set(context, plugin);
  return plugin;
}

/**
 * Delivers a mail composed in a request (`mailer.compose`): what fw-b's contrib mails become when
 * the app has a Redis queue. Retried for about half an hour while the mail server is down, then
 * kept as failed (`jobs:retry` sends it again), never lost.
 */
export class DeliverMail extends Job<ComposedMail> {
  static override jobName = "fwkit.deliver-mail";
  static override options = { attempts: 10, backoff: "2s" };

  async handle(mail: ComposedMail, context: JobContext): Promise<void> {
    const services = context.locals["services"] as ServicesPlugin["services"] | undefined;
    if (!services)
      throw new E_JOB_OPTION_INVALID(
        "the job fwkit.deliver-mail",
        "batteries.services",
        "on (the mailer lives there)",
        false,
      );
    await services.mailer.deliver(mail);
  }
}

/** What {@link DeliverSignal} carries: which receiver of which signal, and the payload. */
export interface SignalDelivery {
  readonly signal: string;
  readonly receiver: string;
  readonly payload: unknown;
}

/** Calls a receiver connected with `{ queued: true }` on a worker; its error is retried. */
export class DeliverSignal extends Job<SignalDelivery> {
  static override jobName = "fwkit.deliver-signal";

  async handle(delivery: SignalDelivery): Promise<void> {
    await defaultRegistry().runQueued(delivery.signal, delivery.receiver, delivery.payload);
  }
}

/** Makes the process's signals hand queued receivers to `dispatcher` (undefined: call them in place again). */
function queueSignals(dispatcher: Dispatcher | undefined): void {
  defaultRegistry().queue = dispatcher
    ? {
        async enqueue(signal, receiver, payload) {
          await dispatcher.dispatch(DeliverSignal, { signal, receiver, payload });
        },
      }
    : undefined;
}

/** Background jobs and schedules: the app's `jobs/` on `QUEUE_URL`, the test fake in tests. */
export const jobsBattery = defineBattery({
  key: "jobs",
  configKeys: JOBS_CONFIG_KEYS,
  plugin: (context) =>
    jobsPlugin({
      jobs: [DeliverMail, DeliverSignal],
      locals: () => {
        const services = servicesOfApp.get(context);
        return services ? { services: services.services } : {};
      },
      onDispatcher: queueSignals,
    }),
});
