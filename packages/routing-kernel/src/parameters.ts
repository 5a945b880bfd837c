import { createRequire } from "node:module";
import type { AssignmentPattern, Function as FunctionNode, Identifier, Node, Pattern } from "acorn";
import { E_UNREADABLE_PARAMETERS, E_UNSUPPORTED_PARAMETER } from "./errors.js";

// acorn is loaded on the first list the fast path leaves to it (its CommonJS build, synchronously):
// an app whose methods all take plain parameters never loads the parser at start-up.
let acorn: typeof import("acorn") | undefined;
const parser = (): typeof import("acorn") =>
  (acorn ??= createRequire(import.meta.url)("acorn") as typeof import("acorn"));

/** One declared parameter of a view method. */
export interface ParameterSpec {
  /** The parameter's name, which is also its path-segment name. */
  readonly name: string;
  /** True when the parameter has a default value: its segment may be left out. */
  readonly optional: boolean;
}

const cache = new WeakMap<Function, readonly ParameterSpec[]>();
const NONE: readonly ParameterSpec[] = Object.freeze([]);
const NATIVE = /\{\s*\[native code\]\s*\}\s*$/;
const EMPTY_PARAMETERS = /^(?:async\s+)?(?:\*\s*)?[\w$]+\s*\(\s*\)/;

/**
 * Reads the parameter list of a function from its source. A method whose list is plain ASCII
 * identifiers (`show(id)`, `async list(page, size)`) is read by {@link readSimpleParameters}; any
 * other list (default values, comments, destructuring, rest, unusual whitespace or names) goes to a
 * real JavaScript parser (acorn), so comments, default values holding commas or parentheses, and
 * async or generator methods are all understood. Rest and destructured parameters are refused
 * because each parameter is one path segment. `handler` names the method in error messages.
 */
export function readParameters(fn: Function, handler: string): readonly ParameterSpec[] {
  const cached = cache.get(fn);
  if (cached) return cached;
  const source = Function.prototype.toString.call(fn);
  if (source.includes("[native code]") && NATIVE.test(source)) {
    throw new E_UNREADABLE_PARAMETERS(handler, "it is a native or bound function");
  }
  // Most view methods declare no parameters; their empty list needs no parser.
  // (Not cached: checking again costs less than a weak-map entry per method.)
  if (fn.length === 0 && EMPTY_PARAMETERS.test(source)) return NONE;
  const specs = readSimpleParameters(source, fn.length) ?? parseParameters(source, handler);
  cache.set(fn, specs);
  return specs;
}

/** Parses the parameter list of a function's source with acorn (what {@link readParameters} falls back to). */
export function parseParameters(source: string, handler: string): readonly ParameterSpec[] {
  const node = parseFunction(source);
  if (!node) throw new E_UNREADABLE_PARAMETERS(handler, "its source does not parse as a function or method");
  return Object.freeze(node.params.map((param) => toSpec(param, handler)));
}

// `name(`, `async name(`, `*name(`, `async *name(` with an ASCII name: a method shorthand (or
// `function(`/`async(` as a name, which the parser reads the same way). `async` may not be
// followed by a line break in a method, so only spaces and tabs are accepted there.
const HEAD = /^(?:async[ \t]+)?(?:\*[ \t\r\n]*)?[A-Za-z_$][\w$]*[ \t\r\n]*\(/;
// The list up to the first `)`: identifiers, commas and ASCII whitespace, then a body or an arrow.
const LIST = /^([\w$, \t\r\n]*)\)[ \t\r\n]*(?:\{|=>)/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

// Names a module-mode parser refuses as parameters (reserved words, strict-mode restrictions):
// the fast path leaves them to the parser, which decides as it always did.
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await eval arguments"
  ).split(" "),
);

/**
 * The parameters of a source whose list is plain ASCII identifiers, without a parser; `undefined`
 * when the list holds anything else (a default, a comment, a pattern, a rest element, a trailing
 * comma, a reserved or repeated name, a non-ASCII character) or when the count differs from
 * `length` (the function's own count). On the sources it accepts it gives what acorn gives.
 */
export function readSimpleParameters(source: string, length: number): readonly ParameterSpec[] | undefined {
  const head = HEAD.exec(source);
  if (!head) return undefined;
  const list = LIST.exec(source.slice(head[0].length));
  if (!list) return undefined;
  const text = list[1]!.trim();
  if (text === "") return length === 0 ? NONE : undefined;
  const names = text.split(",").map((item) => item.trim());
  if (names.length !== length) return undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (!IDENTIFIER.test(name) || RESERVED.has(name) || names.indexOf(name) !== i) return undefined;
  }
  return Object.freeze(names.map((name) => ({ name, optional: false })));
}

/** Parses the source of a function expression, arrow function or method shorthand. */
function parseFunction(source: string): FunctionNode | undefined {
  // Method shorthand (`name(a) {}`, `async *name() {}`) parses inside an object literal;
  // function and arrow expressions parse as they are.
  for (const wrapped of [`({${source}\n})`, `(${source}\n)`]) {
    try {
      const program = parser().parse(wrapped, { ecmaVersion: "latest", sourceType: "module" });
      const statement = program.body[0];
      if (statement?.type !== "ExpressionStatement") continue;
      const expression = statement.expression;
      if (expression.type === "ObjectExpression") {
        const property = expression.properties[0];
        if (property?.type === "Property" && property.value.type === "FunctionExpression") return property.value;
        continue;
      }
      if (expression.type === "FunctionExpression" || expression.type === "ArrowFunctionExpression") return expression;
    } catch {
      // try the next wrapping
    }
  }
  return undefined;
}

function toSpec(param: Pattern | Node, handler: string): ParameterSpec {
  if (param.type === "Identifier") return { name: (param as { name: string }).name, optional: false };
  if (param.type === "AssignmentPattern") {
    const { left } = param as AssignmentPattern;
    if (left.type === "Identifier") return { name: (left as Identifier).name, optional: true };
    throw new E_UNSUPPORTED_PARAMETER(handler, "a destructured parameter with a default value");
  }
  if (param.type === "RestElement") throw new E_UNSUPPORTED_PARAMETER(handler, "a rest parameter (...args)");
  if (param.type === "ObjectPattern" || param.type === "ArrayPattern") {
    throw new E_UNSUPPORTED_PARAMETER(handler, "a destructured parameter");
  }
  throw new E_UNSUPPORTED_PARAMETER(handler, `a parameter of kind ${param.type}`);
}
