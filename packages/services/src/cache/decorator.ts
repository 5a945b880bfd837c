import { setTag, type Route, type ViewDecorator } from "routing-kernel";
import { ttlMs } from "./cache.js";

/** The route tag under which response caching is recorded. */
export const CACHE_TAG = "services.cacheResponse";

/** What the tag holds. */
export interface CacheTag {
  /** How long a response is kept, in seconds. */
  readonly seconds: number;
}

/**
 * Makes a response-caching decorator under a framework's own name (fw-a: `response.cache`,
 * fw-b: `cache`), so errors name the decorator as the user wrote it.
 */
export function makeCacheDecorator(decoratorName: string): (seconds: number) => ViewDecorator {
  return (seconds) => {
    ttlMs(`@${decoratorName}(seconds)`, seconds);
    return setTag(decoratorName, CACHE_TAG, { seconds } satisfies CacheTag);
  };
}

/**
 * Caches the GET responses of a view method, or of every method of a view class, for `seconds`
 * (see {@link responseCache} for what is never cached).
 */
export const cacheResponse: (seconds: number) => ViewDecorator = makeCacheDecorator("cacheResponse");

/** The caching a route asked for, if any (read once at start-up by the plugin). */
export function cacheTagOf(route: Route): CacheTag | undefined {
  const tag = route.tags[CACHE_TAG] as CacheTag | undefined;
  return tag && typeof tag.seconds === "number" ? tag : undefined;
}
