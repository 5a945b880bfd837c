// Connections a dead worker never took. node:cluster's round-robin primary accepts each connection
// and hands it to a worker in a message, keeping its own copy of the socket until the worker
// answers that it took it; a worker killed with such a message unread never answers, and the
// primary keeps the socket open with nobody to serve it: the client (or the balancer) waits until
// its own timeout. Node offers no hook for this, so the primary watches the hand-offs it sends
// (the `newconn` messages of node:cluster's internal protocol, stable since Node 0.12) and, once
// the worker is gone and every answer it sent has been read, hands the connections it never took
// to a live worker, which serves them like any other: the client only sees a delay.
import type { Worker } from "node:cluster";
import { CONNECTION_MESSAGE } from "./messages.js";

/** A socket handle as the cluster passes it (a libuv TCP handle). */
interface Handle {
  close(): void;
}

type Send = (message: unknown, handle?: unknown, ...rest: unknown[]) => boolean;

const isCluster = (message: unknown): message is { cmd: "NODE_CLUSTER"; act?: string; seq?: number; ack?: number } =>
  typeof message === "object" && message !== null && (message as { cmd?: unknown }).cmd === "NODE_CLUSTER";

/**
 * Watches the connections the cluster hands to `worker`; when its channel closes, `orphaned` gets
 * those it never took (at most a few: the cluster hands a worker one at a time per server).
 */
export function watchHandoffs(worker: Worker, orphaned: (handles: Handle[]) => void): void {
  const child = worker.process as unknown as {
    send: Send;
    on(event: string, listener: (message: unknown) => void): void;
    once(event: string, listener: () => void): void;
  };
  const pending = new Map<number, Handle>();
  const send = child.send;
  child.send = function (this: unknown, message, handle, ...rest) {
    if (handle && isCluster(message) && message.act === "newconn" && typeof message.seq === "number")
      pending.set(message.seq, handle as Handle);
    return send.call(this, message, handle, ...rest);
  };
  child.on("internalMessage", (message) => {
    if (isCluster(message) && typeof message.ack === "number") pending.delete(message.ack);
  });
  let done = false;
  const settle = () => {
    if (done) return;
    done = true;
    if (pending.size > 0) orphaned([...pending.values()]);
    pending.clear();
  };
  child.once("disconnect", settle);
  // A worker killed while a socket was on its way never acknowledges it, and node then never
  // emits "disconnect": its exit is the sign. The channel's last answers (already written by the
  // dead process) are read within the same turn or the next one; 50 ms leaves room for both.
  child.once("exit", () => setTimeout(settle, 50));
}

/**
 * Hands a connection a dead worker never took to `worker` (which serves it, see worker-main), or
 * closes it when there is no live worker: a closed connection is an error the client sees at once,
 * where an open one nobody serves is a wait until its timeout.
 */
export function handOver(handle: Handle, worker: Worker | undefined): void {
  if (!worker?.isConnected()) {
    handle.close();
    return;
  }
  // The primary's copy closes once the message (and the socket with it) is written.
  worker.send(CONNECTION_MESSAGE, handle as never, () => handle.close());
}
