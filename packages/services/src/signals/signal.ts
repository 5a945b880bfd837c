import { E_SIGNAL_NAME_INVALID } from "../errors.js";
import { consoleLogger, type ServiceLogger } from "../logger.js";

/** Where a delivered payload comes from: this process, or another one through a bridge. */
export type SignalOrigin = "local" | "remote";

/** What a receiver learns besides the payload. */
export interface SignalMeta {
  /** The signal's name. */
  readonly name: string;
  /** `remote` when a bridge delivered it from another process. */
  readonly origin: SignalOrigin;
}

/** A function connected to a signal; it may be async. */
export type Receiver<Payload> = (payload: Payload, meta: SignalMeta) => unknown;

/**
 * A named channel parts of an app send to and connect to, so a sender never knows its receivers
 * (the mailer does not know who logs mail, the login code does not know who audits logins).
 */
export interface Signal<Payload> {
  /** The dotted name, unique in its registry. */
  readonly name: string;
  /** Connects a receiver; returns the function that disconnects it. */
  connect(receiver: Receiver<Payload>): () => void;
  /**
   * Calls every receiver in connection order and awaits each. A receiver that throws or rejects
   * is logged and skipped: the sender and the other receivers go on.
   */
  send(payload: Payload, options?: { origin?: SignalOrigin }): Promise<void>;
  /** How many receivers are connected (senders may skip building a payload when none). */
  readonly receiverCount: number;
}

const NAME = /^[a-z0-9_]+(?:\.[a-z0-9_]+)*$/;

class NamedSignal<Payload> implements Signal<Payload> {
  readonly #receivers = new Set<{ receiver: Receiver<Payload> }>();

  constructor(
    readonly name: string,
    private readonly registry: SignalRegistry,
  ) {}

  get receiverCount(): number {
    return this.#receivers.size;
  }

  connect(receiver: Receiver<Payload>): () => void {
    // Wrapped so the same function connected twice is two connections, each disconnected once.
    const entry = { receiver };
    this.#receivers.add(entry);
    return () => {
      this.#receivers.delete(entry);
    };
  }

  async send(payload: Payload, options: { origin?: SignalOrigin } = {}): Promise<void> {
    if (this.#receivers.size === 0) return;
    const meta: SignalMeta = { name: this.name, origin: options.origin ?? "local" };
    for (const { receiver } of [...this.#receivers]) {
      try {
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
