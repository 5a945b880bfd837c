import { makeCacheDecorator } from "@fwkit/services/battery";
import type { ViewDecorator } from "routing-kernel";

export {
  bearerAuth,
  cors,
  csrfExempt,
  idempotent,
  loginRequired,
  rateLimit,
  type RateLimitOptions,
} from "@fwkit/security";

/**
 * Caches the GET answers of a view method (or of every method of a class) for `seconds`, in the
 * app's cache (`cacheUrl`: memory or Redis). Answers that set cookies, and requests that carry a
 * session cookie, are never cached.
 */
export const cache: (seconds: number) => ViewDecorator = makeCacheDecorator("cache");
