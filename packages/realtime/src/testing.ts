/**
 * The test helper behind `client.realtime`: the broadcasts an app made (the hub keeps them in the
 * test environment), to assert in a user's tests without opening a stream.
 */
import type { Host } from "@fwkit/koa-host";
import { E_TEST_REALTIME_UNAVAILABLE } from "./errors.js";
import type { RecordedBroadcast } from "./hub.js";
import { realtimeOf } from "./plugin.js";

/** What `client.realtime` offers. */
export interface RealtimeFake {
  /** The broadcasts made, oldest first; with `channel`, those of that channel (`orders/42`). */
  broadcasts(channel?: string): readonly RecordedBroadcast[];
  /** The newest broadcast (of `channel`), or undefined. */
  last(channel?: string): RecordedBroadcast | undefined;
  /** Forgets the broadcasts recorded so far. */
  clear(): void;
}

/** `client.realtime` of a built app; `E_TEST_REALTIME_UNAVAILABLE` when realtime is off. */
export function realtimeFake(host: Host): RealtimeFake {
  const recorded = () => {
    const list = realtimeOf(host)?.hub?.recorded;
    if (!list) throw new E_TEST_REALTIME_UNAVAILABLE();
    return list;
  };
  const of = (channel?: string) => recorded().filter((item) => channel === undefined || item.channel === channel);
  return {
    broadcasts: (channel) => of(channel),
    last: (channel) => of(channel).at(-1),
    clear: () => {
      recorded().length = 0;
    },
  };
}
