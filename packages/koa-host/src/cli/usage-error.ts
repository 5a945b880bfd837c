import { closestName } from "routing-kernel/plugin";

/** What a CLI knew when yargs refused a command line. */
export interface UsageContext {
  /** The CLI's name (`fw-a`). */
  readonly name: string;
  /** The raw arguments. */
  readonly argv: readonly string[];
  /** The options known where parsing stopped (the command's and the global ones), without dashes. */
  readonly knownOptions: readonly string[];
}

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
  return known.find((option) => option.length === name.length && sortedLetters(option) === sortedLetters(name)) ?? closestName(name, known);
}

/** yargs' refusal of a command line without a command (`demandCommand`). */
export function noCommandMessage(name: string): string {
  return `Name a command: ${name} --help lists them.`;
}

/**
 * Rewrites yargs' terse refusals into messages that say what to do: an unknown command names the
 * closest command (yargs' `recommendCommands`) and the help command; an unknown option names the
 * closest known option and lists every option the command takes.
 */
export function usageErrorMessage(message: string, context: UsageContext): string {
  // Without a command, a stray word is an option's value (`--rot /srv/app`), not the command typed.
  const noCommand = message === noCommandMessage(context.name);
  const typed = noCommand ? undefined : typedCommand(context.argv);
  const help = `${context.name} --help lists the commands.`;
  const recommended = /^Did you mean (.+)\?$/s.exec(message);
  if (recommended) return `Unknown command "${typed ?? ""}". Did you mean "${recommended[1]}"? ${help}`;
  // yargs checks for a missing command before unknown options, so `fw-a --bogus` would only be told
  // to name a command: an unknown option is the mistake to name first.
  const unknownNames = noCommand ? unknownOptions(context) : [];
  const unknown = unknownNames.length > 0 ? [message, unknownNames.join(", ")] : /^Unknown arguments?: (.+)$/s.exec(message);
  if (!unknown) return message;
  const names = unknown[1]!.split(", ");
  if (typed !== undefined && names.includes(typed)) return `Unknown command "${typed}": ${help}`;
  const where = typed ? `${context.name} ${typed}` : context.name;
  const stray = noCommand ? [] : names.filter((name) => context.argv.includes(name));
  if (stray.length > 0) return `${where} takes no argument ${stray.map((name) => JSON.stringify(name)).join(", ")}: ${context.name} ${typed ?? ""} --help shows its usage.`.replace("  ", " ");
  const dashed = (option: string) => (option.length === 1 ? `-${option}` : `--${option}`);
  // An unknown option is shown as typed (`-x`, `--x`).
  const asTyped = (option: string) => (context.argv.some((arg) => arg === `-${option}` || arg.startsWith(`-${option}=`)) ? `-${option}` : `--${option}`);
  const known = [...new Set(context.knownOptions)].filter((option) => !/^\d+$/.test(option));
  const parts = names.map((name) => {
    const closest = closestOption(name, known);
    return `${asTyped(name)}${closest ? ` (did you mean "${dashed(closest)}"?)` : ""}`;
  });
  return `Unknown option${parts.length > 1 ? "s" : ""} ${parts.join(", ")}. ${where} takes: ${known.map(dashed).join(", ")}.`;
}
