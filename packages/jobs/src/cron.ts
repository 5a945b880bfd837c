/**
 * Cron expressions, read by cron-parser: an optional peer of the jobs battery (with luxon, 5 MB),
 * loaded by the first cron schedule, so an app whose jobs have none (or only `{ every }`
 * intervals) installs neither. BullMQ schedules with its own cron-parser 4, which npm hoists where
 * this loader finds it, so an app on Redis reads its expressions with the parser that runs them;
 * both the 5.x and the 4.x interface are read.
 */
import { driverLoader } from "@fwkit/battery-kit";
import { E_JOB_CRON_PARSER_MISSING } from "./errors.js";

/** What both cron-parser versions take. */
interface CronOptions {
  readonly tz: string;
  readonly currentDate?: Date;
}

/** The runs of a parsed expression. */
interface CronRuns {
  next(): { toDate(): Date };
}

/** cron-parser 5.x (`CronExpressionParser.parse`) or 4.x (`parseExpression`). */
interface CronParserModule {
  readonly CronExpressionParser?: { parse(expression: string, options: CronOptions & { strict?: boolean }): CronRuns };
  readonly parseExpression?: (expression: string, options: CronOptions) => CronRuns;
}

const { requireDriver } = driverLoader(
  import.meta.url,
  (user, name, reason) => new E_JOB_CRON_PARSER_MISSING(user, name, reason),
);

/**
 * The parse function of the installed cron-parser; `user` names what needs it in the error a
 * missing package raises (`E_JOB_CRON_PARSER_MISSING`). Parsing throws on an invalid expression.
 */
export function cronParser(user: string): (expression: string, options: CronOptions) => CronRuns {
  const parser = requireDriver<CronParserModule>("cron-parser", user);
  const { CronExpressionParser, parseExpression } = parser;
  // strict: false lets 5.x read what 4.x (BullMQ's) reads, such as a day-of-month with a weekday.
  if (CronExpressionParser)
    return (expression, options) => CronExpressionParser.parse(expression, { ...options, strict: false });
  if (parseExpression) return (expression, options) => parseExpression(expression, options);
  throw new E_JOB_CRON_PARSER_MISSING(
    user,
    "cron-parser",
    "it exports neither CronExpressionParser (5.x) nor parseExpression (4.x)",
  );
}
