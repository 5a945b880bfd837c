/**
 * The jobs battery: the app's jobs (`jobs/`) on the queue `QUEUE_URL` names, for both frameworks.
 * It also carries the kit's own jobs: a mail composed in a request and delivered by a worker
 * (retried while the mail server is down), and a signal delivery to a receiver connected with
 * `{ queued: true }`.
 */
import { Job, jobsConfigSchema, jobsPlugin, type Dispatcher, type JobContext } from "@fwkit/jobs";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ComposedMail, ServicesPlugin } from "@fwkit/services";
import { defaultRegistry } from "@fwkit/services/battery";
import type { BatteryContext } from "./battery.js";
import { defineBattery } from "./battery.js";

// The services plugin of each app being assembled, so its jobs reach the app's mailer.
const servicesOfApp = new WeakMap<BatteryContext, ServicesPlugin>();

/** Records the services plugin built for an app (the services battery calls it). */
export function rememberServices(context: BatteryContext, plugin: ServicesPlugin): ServicesPlugin {
  servicesOfApp.set(context, plugin);
  return plugin;
}

const isText = (value: unknown): value is string => typeof value === "string";
const isTextList = (value: unknown): boolean =>
  Array.isArray(value) && value.length <= 100 && value.every((item) => isText(item) && item.length <= 320);

/** The shape of a composed mail, checked by the worker once the sealed payload is opened. */
const composedMailSchema: StandardSchemaV1<ComposedMail> = {
  "~standard": {
    version: 1,
    vendor: "fwkit",
    validate(value) {
      const mail = value as Partial<Record<keyof ComposedMail, unknown>> | null;
      const wrong = (message: string) => ({ issues: [{ message }] });
      if (typeof mail !== "object" || mail === null) return wrong("a composed mail is an object");
      if (!isText(mail.template) || !isText(mail.from) || !isText(mail.subject))
        return wrong("template, from and subject are strings");
      if (!isTextList(mail.to) || (mail.to as string[]).length === 0) return wrong("to lists 1 to 100 addresses");
      for (const key of ["cc", "bcc"] as const)
        if (mail[key] !== undefined && !isTextList(mail[key])) return wrong(`${key} lists up to 100 addresses`);
      for (const key of ["replyTo", "text", "html"] as const)
        if (mail[key] !== undefined && !isText(mail[key])) return wrong(`${key} is a string`);
      return { value: mail as ComposedMail };
    },
  },
};

/**
 * Delivers a mail composed in a request (`mailer.compose`): what fw-b's contrib mails become when
 * the app has a Redis queue. Retried for about half an hour while the mail server is down, then
 * kept as failed (`jobs:retry` sends it again), never lost. Sealed: the mail (a reset or
 * verification link) is kept encrypted on the queue, and a worker delivers only mails this app
 * composed, never one added on the dashboard or written to Redis by hand.
 */
export class DeliverMail extends Job<ComposedMail> {
  static override jobName = "fwkit.deliver-mail";
  static override schema = composedMailSchema;
  static override options = { attempts: 10, backoff: "2s", sealed: true };

  async handle(mail: ComposedMail, context: JobContext): Promise<void> {
    // Without the services battery, context.services says so (E_JOB_OPTION_INVALID).
    await context.services.mailer.deliver(mail);
  }
}

/** What {@link DeliverSignal} carries: which receiver of which signal, and the payload. */
export interface SignalDelivery {
  readonly signal: string;
  readonly receiver: string;
  readonly payload: unknown;
}

/**
 * Calls a receiver connected with `{ queued: true }` on a worker; its error is retried. Sealed: a
 * signal's payload may carry what the app would not show (a token), and a worker calls a receiver
 * only with a payload the app's own signal sent, never one added on the dashboard.
 */
export class DeliverSignal extends Job<SignalDelivery> {
  static override jobName = "fwkit.deliver-signal";
  static override options = { sealed: true };

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
  config: jobsConfigSchema,
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
