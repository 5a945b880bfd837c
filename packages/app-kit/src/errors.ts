/**
 * Errors raised while a framework is assembled: a battery declared wrongly, two batteries under one
 * key, an unknown battery switch. All happen at start-up and say what to change.
 */
import { createError } from "routing-kernel";

/** `defineBattery` got a key that is not a plain name, or no `plugin` function. */
export const E_BATTERY_INVALID = createError(
  "E_BATTERY_INVALID",
  500,
  (key: string, reason: string) =>
    `The battery "${key}" is invalid: ${reason}. Give defineBattery({ key, plugin }) a key of letters and digits and a plugin function.`,
);

/** Two batteries registered under the same key. */
export const E_BATTERY_TWICE = createError(
  "E_BATTERY_TWICE",
  500,
  (key: string) =>
    `A battery with the key "${key}" is already registered. Give the new battery another key, or unregister the first.`,
);

/** `batteries` in config switches a battery that is not registered, or with a value that is not a boolean. */
export const E_BATTERY_SWITCH = createError(
  "E_BATTERY_SWITCH",
  500,
  (key: string, known: readonly string[]) =>
    `The config key "batteries.${key}" is invalid: it must be true or false and name a battery (known: ${known.join(", ") || "none"}).`,
);

/** A key both frameworks read (`autoMigrate`) has a value of the wrong kind. */
export const E_FRAMEWORK_CONFIG_INVALID = createError(
  "E_FRAMEWORK_CONFIG_INVALID",
  500,
  (key: string, expected: string, value: unknown) =>
    `The config key "${key}" is invalid: it must be ${expected}, not ${JSON.stringify(value) ?? String(value)}.`,
);

/** An app option was given under its name and under its alias (`viewModules` and `views`). */
export const E_OPTION_ALIAS_TWICE = createError(
  "E_OPTION_ALIAS_TWICE",
  500,
  (where: string, name: string, alias: string) =>
    `${where} was given both "${name}" and "${alias}", which are the same option (${alias} is the other framework's name for it). Keep one: ${name}.`,
);

/** `client.mail` of an app whose mailer does not keep mails (not `memory:`, or the services battery off). */
export const E_TEST_MAIL_UNAVAILABLE = createError(
  "E_TEST_MAIL_UNAVAILABLE",
  500,
  (reason: string) =>
    `client.mail cannot read the app's mail: ${reason}. The test environment's mailUrl is memory: unless the config sets another; remove mailUrl from the test's config (or set it to "memory:") and keep the services battery on.`,
);

/** `client.mail.last()` found no mail (to that address). */
export const E_TEST_MAIL_NOT_SENT = createError(
  "E_TEST_MAIL_NOT_SENT",
  500,
  (wanted: string, sent: readonly string[]) =>
    `No mail ${wanted} was sent. ${sent.length === 0 ? "No mail was sent at all." : `Sent: ${sent.join("; ")}.`}`,
);
