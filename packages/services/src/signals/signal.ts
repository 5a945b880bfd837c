import { checkOptionKeys } from "routing-kernel";
import type { AppServices } from "@fwkit/koa-host";
import {
  E_SERVICE_NOT_CONFIGURED,
  E_SIGNAL_NAME_INVALID,
  E_SIGNAL_RECEIVER_NAME,
  E_SIGNAL_RECEIVER_UNKNOWN,
} from "../errors.js";
import { consoleLogger, type ServiceLogger } from "../logger.js";

/** Where a delivered payload comes from: this process, or another one through a bridge. */
export type SignalOrigin = "local" | "remote";

/** What a receiver learns besides the payload. */
export interface SignalMeta {
  /** The signal's name. */
  readonly name: string;
  /** `remote` when a bridge delivered it from another process. */
  readonly origin: SignalOrigin;
  /** The app's services (mailer, storage, cache...), typed by `AppServices` of `@fwkit/koa-host`. */
  readonly services: AppServices;
}

/** Services that say why there are none when one is asked for (no services battery set them). */
const NO_SERVICES = new Proxy(
  {},
  {
    get(_target, key) {
      // Inspection (util.inspect, await) must not throw.
      if (typeof key === "symbol" || key === "then" || key === "toJSON") return undefined;
      throw new E_SERVICE_NOT_CONFIGURED(
        `service ${String(key)}`,
        "the app's services reach receivers through the services battery; keep it on (batteries.services)",
      );
    },
  },
) as AppServices;

/** A function connected to a signal; it may be async. */
export type Receiver<Payload> = (payload: Payload, meta: SignalMeta) => unknown;

/** How a receiver is connected. */
export interface ConnectOptions {
  /**
   * Hand each delivery to the job queue instead of calling the receiver in the sender's request:
   * a worker calls it, retries it when it throws, and a process that is down misses nothing.
   * Without a queue (no jobs battery) the receiver is called in place, as any other.
   */
  readonly queued?: boolean;
  /**
   * The receiver's name on its signal, how a worker finds it again (default: the function's
   * name). Unique per signal; required for a queued arrow function with no name.
   */
  readonly name?: string;
}

/**
 * Where queued receivers' deliveries go: the jobs battery sets it on the registry
 * (`registry.queue`), and a worker hands each job back to {@link SignalRegistry.runQueued}.
 */
export interface SignalQueue {
  /** Queues one delivery of `payload` to the receiver `receiver` of the signal `signal`. */
  enqueue(signal: string, receiver: string, payload: unknown): Promise<void>;
}

/**
 * A named channel parts of an app send to and connect to, so a sender never knows its receivers
 * (the mailer does not know who logs mail, the login code does not know who audits logins).
 */
export interface Signal<Payload> {
  /** The dotted name, unique in its registry. */
  readonly name: string;
  /** Connects a receiver (`{ queued: true }`: through the job queue); returns the function that disconnects it. */
  connect(receiver: Receiver<Payload>, options?: ConnectOptions): () => void;
  /**
   * Calls every receiver in connection order and awaits each. A receiver that throws or rejects
   * is logged and skipped: the sender and the other receivers go on.
   */
  send(payload: Payload, options?: { origin?: SignalOrigin }): Promise<void>;
  /** How many receivers are connected (senders may skip building a payload when none). */
  readonly receiverCount: number;
}

const NAME = /^[a-z0-9_]+(?:\.[a-z0-9_]+)*$/;

interface Connection<Payload> {
  readonly receiver: Receiver<Payload>;
  /** Set for a queued receiver: its name on the signal. */
  readonly queued?: string;
}

class NamedSignal<Payload> implements Signal<Payload> {
  readonly #receivers = new Set<Connection<Payload>>();

  constructor(
    readonly name: string,
    private readonly registry: SignalRegistry,
  ) {}

  get receiverCount(): number {
    return this.#receivers.size;
  }

  connect(receiver: Receiver<Payload>, options: ConnectOptions = {}): () => void {
    checkOptionKeys(`signal("${this.name}").connect(receiver, options)`, options, ["queued", "name"]);
    // Wrapped so the same function connected twice is two connections, each disconnected once.
    const entry: Connection<Payload> = options.queued
      ? { receiver, queued: this.#queuedName(receiver, options.name) }
      : { receiver };
    this.#receivers.add(entry);
    return () => {
      this.#receivers.delete(entry);
    };
  }

  /** The connected queued receiver named `name`, if any. */
  queuedReceiver(name: string): Receiver<Payload> | undefined {
    for (const entry of this.#receivers) if (entry.queued === name) return entry.receiver;
    return undefined;
  }

  #queuedName(receiver: Receiver<Payload>, given: string | undefined): string {
    const name = given ?? receiver.name;
    if (typeof name !== "string" || name === "")
      throw new E_SIGNAL_RECEIVER_NAME(
        this.name,
        'a queued receiver needs a name a worker can find it by: connect(receiver, { queued: true, name: "audit" })',
      );
    if (this.queuedReceiver(name))
      throw new E_SIGNAL_RECEIVER_NAME(
        this.name,
        `a queued receiver named "${name}" is already connected: give this one another name`,
      );
    return name;
  }

  async send(payload: Payload, options: { origin?: SignalOrigin } = {}): Promise<void> {
    if (this.#receivers.size === 0) return;
    const meta: SignalMeta = { name: this.name, origin: options.origin ?? "local", services: this.registry.services };
    const queue = this.registry.queue;
    for (const { receiver, queued } of [...this.#receivers]) {
      try {
        if (queued !== undefined && queue) {
          // The sending process queues the delivery once; a copy bridged from another process was
          // queued there already.
          if (meta.origin === "local") await queue.enqueue(this.name, queued, payload);
          continue;
        }
        await receiver(payload, meta);
      } catch (error) {
        this.registry.logger.error(
          { err: error, signal: this.name, receiver: receiver.name || "(anonymous)" },
          `A receiver of the signal "${this.name}" failed; the other receivers still ran`,
        );
      }
    }
  }
}

/** Holds signals by name, so every `signal(name)` call in an app returns the same signal. */
export class SignalRegistry {
  readonly #signals = new Map<string, Signal<unknown>>();
  /** Where failing receivers are reported; the services plugin injects the app's logger. */
  logger: ServiceLogger;
  /** Where queued receivers' deliveries go (set by the jobs battery); unset: they are called in place. */
  queue: SignalQueue | undefined;
  /** What receivers get as `meta.services` (set by the services plugin at start-up). */
  #services: AppServices | undefined;

  /** The app's services for receivers; asking one of them before the services plugin set them says why. */
  get services(): AppServices {
    return this.#services ?? NO_SERVICES;
  }

  set services(services: AppServices | undefined) {
    this.#services = services;
  }

  constructor(logger: ServiceLogger = consoleLogger) {
    this.logger = logger;
  }

  /** The signal with this name, created on first use. */
  get<Payload>(name: string): Signal<Payload> {
    if (typeof name !== "string" || !NAME.test(name)) throw new E_SIGNAL_NAME_INVALID(String(name));
    let found = this.#signals.get(name);
    if (!found) {
      found = new NamedSignal<unknown>(name, this);
      this.#signals.set(name, found);
    }
    return found as Signal<Payload>;
  }

  /**
   * Runs one queued delivery (what a worker does with a job the {@link SignalQueue} made): calls
   * the receiver `receiver` of `signal`; its error is thrown, so the job is retried. A receiver no
   * longer connected is `E_SIGNAL_RECEIVER_UNKNOWN`.
   */
  async runQueued(signal: string, receiver: string, payload: unknown): Promise<void> {
    const found = (this.get(signal) as NamedSignal<unknown>).queuedReceiver(receiver);
    if (!found) throw new E_SIGNAL_RECEIVER_UNKNOWN(signal, receiver);
    await found(payload, { name: signal, origin: "local", services: this.services });
  }

  /** Names of the signals created so far. */
  names(): string[] {
    return [...this.#signals.keys()];
  }
}

// Under a registry symbol so two copies of this package in one process share their signals.
const GLOBAL = Symbol.for("services.signals.registry");

/** The process-wide registry that {@link signal} uses. */
export function defaultRegistry(): SignalRegistry {
  const holder = globalThis as { [GLOBAL]?: SignalRegistry };
  holder[GLOBAL] ??= new SignalRegistry();
  return holder[GLOBAL];
}
