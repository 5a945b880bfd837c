import { closestName } from "routing-kernel/plugin";

/** What a CLI knew when yargs refused a command line. */
export interface UsageContext {
  /** The CLI's name (`fw-a`). */
  readonly name: string;
  /** The raw arguments. */
  readonly argv: readonly string[];
  /** The options known where parsing stopped (the command's and the global ones), without dashes. */
  readonly knownOptions: readonly string[];
  /** The CLI's commands as declared (`gen:view <name>`, `hello [name]`), for suggestions and usage. */
  readonly commands?: readonly string[];
}

/** Edit distance with adjacent swaps counted once (`rotues` -> `routes` is 1). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** A command's name without its namespace: `gen:serve`, `:serve` and `serve` -> `serve`; `products:count` stays. */
const baseOf = (command: string) => command.replace(/^(gen|db|jobs)?:/, "");

/**
 * The commands a mistyped command most likely meant, from the CLI's own list: a command whose name
 * without its namespace is the word typed (`serve` -> `gen:serve`, `init` -> `:init`), else the
 * closest ones within one edit (two for names of six letters or more; a swap of two letters is one
 * edit), else the only command the word typed (three letters or more) begins.
 */
export function suggestCommands(typed: string, commands: readonly string[]): string[] {
  const names = [
    ...new Set(
      commands.map((command) => command.split(" ")[0]!).filter((name) => name && name !== "$0" && name !== "*"),
    ),
  ];
  const word = baseOf(typed.toLowerCase());
  const same = names.filter((name) => baseOf(name.toLowerCase()) === word && name !== typed);
  if (same.length > 0) return same;
  const limit = word.length >= 6 ? 2 : 1;
  let best = Number.POSITIVE_INFINITY;
  let closest: string[] = [];
  for (const name of names) {
    const score = Math.min(
      editDistance(typed.toLowerCase(), name.toLowerCase()),
      editDistance(word, baseOf(name.toLowerCase())),
    );
    if (score > limit || score > best) continue;
    if (score < best) closest = [];
    best = score;
    closest.push(name);
  }
  if (closest.length > 0) return closest;
  const begun = word.length >= 3 ? names.filter((name) => baseOf(name.toLowerCase()).startsWith(word)) : [];
  return begun.length === 1 ? begun : [];
}

const quoteList = (names: readonly string[]) => names.map((name) => `"${name}"`).join(" or ");

/** The first argument that is neither an option nor the value of `--root`/`--app`: the command typed. */
export function typedCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--root" || arg === "--app") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/**
 * The options of a command line without a command that no known option matches (`--bogus`, each
 * letter of `-xy`), without dashes; `--no-<option>` negates a known boolean option.
 */
export function unknownOptions(context: UsageContext): string[] {
  const known = new Set(context.knownOptions);
  const names: string[] = [];
  for (let i = 0; i < context.argv.length; i++) {
    const arg = context.argv[i]!;
    if (arg === "--") break;
    if (arg === "--root" || arg === "--app") i++;
    if (!arg.startsWith("-") || arg === "-") continue;
    const bare = arg.replace(/^--?/, "").replace(/=.*$/s, "");
    const candidates = arg.startsWith("--") ? [bare] : [...bare];
    for (const name of candidates) {
      if (!known.has(name) && !(name.startsWith("no-") && known.has(name.slice(3)))) names.push(name);
    }
  }
  return [...new Set(names)];
}

const sortedLetters = (word: string) => [...word.toLowerCase()].sort().join("");

/** The closest known option: two letters swapped (`--prot`) first, then the kernel's closest name. */
function closestOption(name: string, known: readonly string[]): string | undefined {
  return (
    known.find((option) => option.length === name.length && sortedLetters(option) === sortedLetters(name)) ??
    closestName(name, known)
  );
}

/** yargs' refusal of a command line without a command (`demandCommand`). */
export function noCommandMessage(name: string): string {
  return `Name a command: ${name} --help lists them.`;
}

/**
 * Rewrites yargs' terse refusals into messages that say what to do: an unknown command names the
 * commands it most likely meant ({@link suggestCommands}) and the help command; an unknown option
 * names the closest known option and lists every option the command takes; a missing argument is
 * named with the command's usage.
 */
export function usageErrorMessage(message: string, context: UsageContext): string {
  // Without a command, a stray word is an option's value (`--rot /srv/app`), not the command typed.
  const noCommand = message === noCommandMessage(context.name);
  const typed = noCommand ? undefined : typedCommand(context.argv);
  const help = `${context.name} --help lists the commands.`;
  const missing = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(message);
  if (missing && typed !== undefined) {
    const declared = context.commands?.find((command) => command.split(" ")[0] === typed);
    const required = declared?.split(" ").filter((part) => part.startsWith("<")) ?? [];
    const absent = required.slice(Number(missing[1]));
    if (declared && absent.length > 0)
      return `${context.name} ${typed} needs ${absent.join(" and ")}: ${context.name} ${declared}. ${context.name} ${typed} --help shows its usage.`;
  }
  // yargs checks for a missing command before unknown options, so `fw-a --bogus` would only be told
  // to name a command: an unknown option is the mistake to name first.
  const unknownNames = noCommand ? unknownOptions(context) : [];
  const unknown =
    unknownNames.length > 0 ? [message, unknownNames.join(", ")] : /^Unknown arguments?: (.+)$/s.exec(message);
  if (!unknown) return message;
  const names = unknown[1]!.split(", ");
  if (typed !== undefined && names.includes(typed)) {
    const suggestions = suggestCommands(typed, context.commands ?? []);
    return suggestions.length > 0
      ? `Unknown command "${typed}". Did you mean ${quoteList(suggestions)}? ${help}`
      : `Unknown command "${typed}": ${help}`;
  }
  const where = typed ? `${context.name} ${typed}` : context.name;
  const stray = noCommand ? [] : names.filter((name) => context.argv.includes(name));
  if (stray.length > 0)
    return `${where} takes no argument ${stray.map((name) => JSON.stringify(name)).join(", ")}: ${context.name} ${typed ?? ""} --help shows its usage.`.replace(
      "  ",
      " ",
    );
  const dashed = (option: string) => (option.length === 1 ? `-${option}` : `--${option}`);
  // An unknown option is shown as typed (`-x`, `--x`).
  const asTyped = (option: string) =>
    context.argv.some((arg) => arg === `-${option}` || arg.startsWith(`-${option}=`)) ? `-${option}` : `--${option}`;
  const known = [...new Set(context.knownOptions)].filter((option) => !/^\d+$/.test(option));
  const parts = names.map((name) => {
    const closest = closestOption(name, known);
    return `${asTyped(name)}${closest ? ` (did you mean "${dashed(closest)}"?)` : ""}`;
  });
  return `Unknown option${parts.length > 1 ? "s" : ""} ${parts.join(", ")}. ${where} takes: ${known.map(dashed).join(", ")}.`;
}
