import { defaultRegistry, type Signal } from "./signal.js";

/** The names of the signals the framework itself sends. */
export const SIGNALS = Object.freeze({
  /** Sent by the services plugin's middleware before a request is routed. */
  requestStarted: "request.started",
  /** Sent by the services plugin's middleware after a request was answered (or failed). */
  requestFinished: "request.finished",
  /** Sent by the login manager after a login (wired by the security package). */
  userLoggedIn: "user.logged_in",
  /** Sent by the login manager after a logout (wired by the security package). */
  userLoggedOut: "user.logged_out",
  /** Sent by the mailer after the transport accepted a mail. */
  mailSent: "mail.sent",
  /** Sent by storage after a file was written. */
  fileStored: "file.stored",
} as const);

/** Payload of `request.started`. */
export interface RequestStartedPayload {
  readonly method: string;
  readonly path: string;
  /** `Date.now()` when the request reached the services middleware. */
  readonly startedAt: number;
}

/** Payload of `request.finished`. */
export interface RequestFinishedPayload {
  readonly method: string;
  readonly path: string;
  /** The status sent, or the status of the error that escaped. */
  readonly status: number;
  readonly durationMs: number;
}

/** Payload of `user.logged_in` and `user.logged_out`. */
export interface UserSignalPayload {
  /** The user's id as the user loader knows it. */
  readonly userId: string | number;
}

/** Payload of `mail.sent`. */
export interface MailSentPayload {
  readonly to: readonly string[];
  readonly subject: string;
  readonly template: string;
  readonly messageId: string;
}

/** Payload of `file.stored`. */
export interface FileStoredPayload {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
  /** The client's file name, for uploads. */
  readonly originalName?: string;
}

/** Payload types of the framework's own signals, by name. */
export interface FrameworkSignals {
  "request.started": RequestStartedPayload;
  "request.finished": RequestFinishedPayload;
  "user.logged_in": UserSignalPayload;
  "user.logged_out": UserSignalPayload;
  "mail.sent": MailSentPayload;
  "file.stored": FileStoredPayload;
}

/**
 * The signal with this name from the process-wide registry (the same name always gives the same
 * signal). The framework's own names are typed; an app types its own with `signal<Payload>(name)`.
 */
export function signal<Name extends keyof FrameworkSignals>(name: Name): Signal<FrameworkSignals[Name]>;
/** An app-defined signal; the payload type is the caller's promise. */
export function signal<Payload>(name: string): Signal<Payload>;
export function signal(name: string): Signal<unknown> {
  return defaultRegistry().get(name);
}
