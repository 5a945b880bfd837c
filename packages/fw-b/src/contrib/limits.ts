/**
 * The rate limits of contrib's anonymous forms that send mail or store messages (lost password,
 * sign-up, contact): per client address, and per email address typed, so neither one client nor
 * many clients can flood one inbox. A form refused for its input mails nothing, so it is not a use
 * of a per-address limit (a mistyped confirmation does not lock a newcomer out); the per-client
 * limits count every post. Each is named, so an app retunes or switches one off in its
 * config: `rateLimits: { "lost-password-email": { max: 5, window: "1h" } }`. The per-address
 * limits count the `email` field as an inbox (`by: "email"`: trimmed, lower-cased).
 */
import type { ViewDecorator } from "routing-kernel";
import { rateLimit } from "../decorators/security.js";

/** Several limits as one decorator. */
function limits(...decorators: ViewDecorator[]): ViewDecorator {
  return (value, context) => {
    for (const decorator of decorators) decorator(value, context);
  };
}

/** `POST /lost-password`: 10 per client and 3 per address in 15 minutes. */
export const lostPasswordLimits: ViewDecorator = limits(
  rateLimit({ name: "lost-password", max: 10, window: "15m" }),
  rateLimit({
    name: "lost-password-email",
    max: 3,
    window: "15m",
    by: "email",
    countInvalid: false,
    message: "Too many reset requests for this address.",
  }),
);

/** `POST /signup`: 10 per client in an hour, and 3 per address (an "address in use" notice each). */
export const signupLimits: ViewDecorator = limits(
  rateLimit({ name: "signup", max: 10, window: "1h" }),
  rateLimit({
    name: "signup-email",
    max: 3,
    window: "1h",
    by: "email",
    countInvalid: false,
    message: "Too many sign-ups with this address.",
  }),
);

/** `POST /contact`: 5 messages per client in 10 minutes, and 10 per sender address in an hour. */
export const contactLimits: ViewDecorator = limits(
  rateLimit({ name: "contact", max: 5, window: "10m" }),
  rateLimit({ name: "contact-email", max: 10, window: "1h", by: "email", countInvalid: false }),
);
