// The realtime battery's WebSocket client for browsers, served by the app at `<realtime.path>/client.js`
// (`/_events/client.js`). A module of its own, no build step:
//
//   import { connectRealtime } from "/_events/client.js";
//   const realtime = connectRealtime("/_events");
//   const room = realtime.subscribe("rooms/7", {
//     event: (event, data) => console.log(event, data),
//     presence: (members) => console.log(members.map((member) => member.name)),
//     reset: () => location.reload(),
//   });
//   await realtime.send("rooms/7", "say", { text: "hi" }); // the handler's reply
//
// What EventSource does for streams it does for the socket: it reconnects after a close (a restart's
// 1012, a cut network), waiting longer after each failed try (0.5 s doubling up to 30 s, each wait
// between half and all of it), and subscribes again to each channel from the last id it saw, so
// nothing within the replay window is missed or had twice.

/**
 * Opens a socket on `path` (the app's `realtime.path`) of this page's origin.
 * `options.minDelay` / `options.maxDelay`: the first and longest wait before reconnecting (ms).
 */
export function connectRealtime(path = "/_events", options = {}) {
  const url = new URL(path, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const minDelay = options.minDelay ?? 500;
  const maxDelay = options.maxDelay ?? 30_000;
  const subscriptions = new Map();
  const replies = new Map();
  const statusListeners = new Set();
  let socket;
  let failures = 0;
  let timer;
  let closed = false;
  let nextRef = 1;

  const status = (state, code) => {
    for (const listener of statusListeners) listener(state, code);
  };
  const write = (frame) => {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  };
  const subscribeFrame = (channel, entry) =>
    write(
      entry.lastId === undefined
        ? { type: "subscribe", channel }
        : { type: "subscribe", channel, lastId: entry.lastId },
    );

  const onFrame = (frame) => {
    const entry = subscriptions.get(frame.channel);
    if (frame.type === "reply" || (frame.type === "error" && frame.ref !== undefined && replies.has(frame.ref))) {
      const waiting = replies.get(frame.ref);
      replies.delete(frame.ref);
      if (!waiting) return;
      if (frame.type === "reply") waiting.resolve(frame.data);
      else waiting.reject(Object.assign(new Error(frame.message), { code: frame.code, status: frame.status }));
      return;
    }
    if (!entry) return;
    if (frame.type === "subscribed") {
      entry.confirmed = true;
      // The position the subscription starts from: a reconnect resumes after it.
      entry.lastId = frame.id;
      if (Array.isArray(frame.members)) {
        entry.members = new Map(frame.members.map((member) => [member.id, member]));
        entry.handlers.presence?.([...entry.members.values()]);
      }
      entry.handlers.subscribed?.();
    } else if (frame.type === "event") {
      entry.lastId = frame.id;
      if (entry.members && (frame.event === "presence:join" || frame.event === "presence:leave")) {
        if (frame.event === "presence:join") entry.members.set(frame.data.id, frame.data);
        else entry.members.delete(frame.data.id);
        entry.handlers.presence?.([...entry.members.values()]);
      }
      entry.handlers.event?.(frame.event, frame.data, frame.id);
    } else if (frame.type === "reset") entry.handlers.reset?.();
    else if (frame.type === "error") {
      // A refused subscription (403, 404) is not asked for again at the next reconnect.
      if (!entry.confirmed) subscriptions.delete(frame.channel);
      entry.handlers.error?.(Object.assign(new Error(frame.message), { code: frame.code, status: frame.status }));
    }
  };

  const open = () => {
    timer = undefined;
    socket = new WebSocket(url);
    socket.onopen = () => {
      failures = 0;
      status("open");
      for (const [channel, entry] of subscriptions) subscribeFrame(channel, entry);
    };
    socket.onmessage = (message) => onFrame(JSON.parse(message.data));
    socket.onclose = (event) => {
      for (const waiting of replies.values()) waiting.reject(new Error("the connection closed before the reply"));
      replies.clear();
      for (const entry of subscriptions.values()) entry.confirmed = false;
      status("closed", event.code);
      if (closed) return;
      const ceiling = Math.min(maxDelay, minDelay * 2 ** failures++);
      timer = setTimeout(open, ceiling / 2 + (Math.random() * ceiling) / 2);
    };
  };
  open();

  return {
    /** Subscribes to `channel`; `handlers`: event(name, data, id), presence(members), reset(), error(err), subscribed(). */
    subscribe(channel, handlers = {}) {
      if (subscriptions.has(channel)) throw new Error(`already subscribed to ${channel}`);
      const entry = { handlers, lastId: undefined, members: undefined, confirmed: false };
      subscriptions.set(channel, entry);
      subscribeFrame(channel, entry);
      return {
        /** The members of a presence channel, once subscribed. */
        get members() {
          return entry.members ? [...entry.members.values()] : undefined;
        },
        /** The id of the last event seen (where a reconnect resumes). */
        get lastId() {
          return entry.lastId;
        },
        unsubscribe() {
          if (subscriptions.get(channel) !== entry) return;
          subscriptions.delete(channel);
          write({ type: "unsubscribe", channel });
        },
      };
    },
    /** Sends `event` with `data` to `channel`'s handler; resolves with its reply, rejects with its error. */
    send(channel, event, data) {
      const ref = nextRef++;
      return new Promise((resolve, reject) => {
        if (!write({ type: "message", channel, event, data, ref })) {
          reject(new Error("the connection is not open"));
          return;
        }
        replies.set(ref, { resolve, reject });
      });
    },
    /** Told "open" and "closed" (with the close code) as the connection comes and goes. */
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    /** Closes for good: no reconnect. */
    close() {
      closed = true;
      clearTimeout(timer);
      socket?.close(1000);
    },
  };
}
