/**
 * Where the JSON log lines of the loggers `createLogger` makes go: standard output, the lines of one
 * event-loop turn written together, synchronously, when the turn ends (or as soon as 64 KB are
 * waiting), in writes of whole lines of up to 4 KB. A busy server answers dozens of requests per
 * turn; pino's own destination makes a write, through the thread pool, for nearly every line.
 *
 * A line waits at most until the end of its turn, and every logger of the process shares this one
 * destination, so lines keep their order. The process writes what is waiting when it exits, however
 * it exits (`process.exit`, an uncaught exception, the end of a graceful shutdown); only a process
 * killed outright (SIGKILL, the kernel's out-of-memory killer) loses the lines of its last turn.
 */
import { writeSync } from "node:fs";
import type { DestinationStream } from "pino";

/** Bytes that make a turn write what it has so far (a turn that logs a lot keeps its memory bounded). */
const FLUSH_AT = 64 * 1024;
/** How long a write waits when the reader of a pipe is behind (EAGAIN), in milliseconds. */
const BUSY_WAIT_MS = 10;

/** A destination that writes its lines once per event-loop turn to a file descriptor. */
export interface TurnLines extends DestinationStream {
  /** Writes what is waiting, now. */
  flushSync(): void;
  /** The same, then calls `done` (pino's `logger.flush(done)`). */
  flush(done?: (error?: Error) => void): void;
}

/** Blocks the thread for `ms` (the reader of a full pipe catches up meanwhile). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes all of `bytes` to `fd`, waiting while the reader of a pipe is behind. */
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      sleep(BUSY_WAIT_MS);
    }
  }
}

/**
 * A pipe keeps a write of up to 4,096 bytes (PIPE_BUF) whole when several processes share it (the
 * workers of `start --workers` on one standard output): lines go out in chunks of at most that
 * size, each ending with a whole line, so no line is cut by another process's. A longer line is
 * written alone.
 */
const PIPE_ATOMIC = 4096;
const NEWLINE = 10;

/** Writes `bytes` (whole lines) to `fd` in chunks of whole lines of at most {@link PIPE_ATOMIC} bytes. */
function writeLines(fd: number, bytes: Buffer): void {
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.length;
    if (end - start > PIPE_ATOMIC) {
      const cut = bytes.lastIndexOf(NEWLINE, start + PIPE_ATOMIC - 1);
      end = cut >= start ? cut + 1 : bytes.indexOf(NEWLINE, start + PIPE_ATOMIC) + 1 || bytes.length;
    }
    writeAll(fd, bytes.subarray(start, end));
    start = end;
  }
}

/** Makes a {@link TurnLines} over `fd`. */
export function turnLines(fd: number): TurnLines {
  // Lines are encoded as they come into one buffer, reused turn after turn: no string of the whole
  // turn is built, and no new buffer is allocated for each write.
  let buffer = Buffer.allocUnsafe(FLUSH_AT * 2);
  let used = 0;
  let scheduled = false;
  // Once the reader is gone (EPIPE) nothing more can be written; the process goes on without logs, as with pino.
  let closed = false;
  let failing: string | undefined;
  const flushSync = (): void => {
    if (used === 0) return;
    const bytes = buffer.subarray(0, used);
    used = 0;
    if (closed) return;
    try {
      writeLines(fd, bytes);
      failing = undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "an unknown error";
      if (code === "EPIPE") closed = true;
      // A log that cannot be written must not fail the requests that logged: the lines are dropped
      // and standard error says so once per kind of failure, until a write succeeds again.
      else if (failing !== code) {
        failing = code;
        process.stderr.write(
          `Log lines could not be written to file descriptor ${fd} (${code}); they are dropped until a write succeeds.\n`,
        );
      }
    }
  };
  const atTurnEnd = (): void => {
    scheduled = false;
    flushSync();
  };
  process.on("exit", flushSync);
  return {
    write(line: string): void {
      // A UTF-16 unit takes at most 3 bytes in UTF-8.
      const most = line.length * 3;
      if (used + most > buffer.length) {
        flushSync();
        if (most > buffer.length) buffer = Buffer.allocUnsafe(most);
      }
      used += buffer.write(line, used, "utf8");
      if (used >= FLUSH_AT) flushSync();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(atTurnEnd);
      }
    },
    flushSync,
    flush(done) {
      try {
        flushSync();
      } catch (error) {
        done?.(error as Error);
        return;
      }
      done?.();
    },
  };
}

let stdoutLines: TurnLines | undefined;

/** The process's one {@link TurnLines} over standard output (every logger shares it, so lines keep their order). */
export function stdoutTurnLines(): TurnLines {
  stdoutLines ??= turnLines(process.stdout.fd ?? 1);
  return stdoutLines;
}
