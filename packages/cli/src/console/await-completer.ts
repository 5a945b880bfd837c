/**
 * Completion of what follows `await` in the console. Node 24's REPL completer gives nothing for a
 * line that starts with `await` (`await No` -> no candidates, where Node 20 and 22 offer `Note`),
 * and the console's lines mostly do (`await Post.find(1)`): when Node's own completer finds nothing,
 * the text after the last `await` is completed instead.
 */
import type { REPLServer } from "node:repl";

type Completion = [string[], string];
type Callback = (error: Error | null | undefined, result?: Completion) => void;
type AsyncCompleter = (line: string, callback: Callback) => void;

/** Wraps `server`'s completer so that what follows `await` completes on every Node version. */
export function completeAfterAwait(server: REPLServer): void {
  const own = server.completer as unknown as AsyncCompleter;
  const completer: AsyncCompleter = (line, callback) => {
    own.call(server, line, (error, result) => {
      const tail = /^[\s\S]*\bawait\s+([\s\S]*)$/.exec(line)?.[1];
      if (error || tail === undefined || (result && result[0].length > 0)) return callback(error, result);
      own.call(server, tail, callback);
    });
  };
  (server as unknown as { completer: AsyncCompleter }).completer = completer;
}
