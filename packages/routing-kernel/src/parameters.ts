import { parse } from "acorn";
import type { Node, Pattern, Function as FunctionNode } from "acorn";
import { E_UNREADABLE_PARAMETERS, E_UNSUPPORTED_PARAMETER } from "./errors.js";

/** One declared parameter of a view method. */
export interface ParameterSpec {
  /** The parameter's name, which is also its path-segment name. */
  readonly name: string;
  /** True when the parameter has a default value: its segment may be left out. */
  readonly optional: boolean;
}

const cache = new WeakMap<Function, readonly ParameterSpec[]>();
const NONE: readonly ParameterSpec[] = Object.freeze([]);
const EMPTY_PARAMETERS = /^(?:async\s+)?(?:\*\s*)?[\w$]+\s*\(\s*\)/;

/**
 * Reads the parameter list of a function from its source with a real JavaScript parser (acorn),
 * so comments, default values holding commas or parentheses, and async or generator methods are
 * all understood. Rest and destructured parameters are refused because each parameter is one path
 * segment. `handler` names the method in error messages.
 */
export function readParameters(fn: Function, handler: string): readonly ParameterSpec[] {
  const cached = cache.get(fn);
  if (cached) return cached;
  const source = Function.prototype.toString.call(fn);
  if (/\{\s*\[native code\]\s*\}\s*$/.test(source)) {
    throw new E_UNREADABLE_PARAMETERS(handler, "it is a native or bound function");
  }
  // Most view methods declare no parameters; their empty list needs no parser.
  if (fn.length === 0 && EMPTY_PARAMETERS.test(source)) {
    cache.set(fn, NONE);
    return NONE;
  }
  const node = parseFunction(source);
  if (!node) throw new E_UNREADABLE_PARAMETERS(handler, "its source does not parse as a function or method");
  const specs = Object.freeze(node.params.map((param) => toSpec(param, handler)));
  cache.set(fn, specs);
  return specs;
}

/** Parses the source of a function expression, arrow function or method shorthand. */
function parseFunction(source: string): FunctionNode | undefined {
  // Method shorthand (`name(a) {}`, `async *name() {}`) parses inside an object literal;
  // function and arrow expressions parse as they are.
  for (const wrapped of [`({${source}\n})`, `(${source}\n)`]) {
    try {
      const program = parse(wrapped, { ecmaVersion: "latest", sourceType: "module" });
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
    const left = (param as unknown as { left: Node }).left;
    if (left.type === "Identifier") return { name: (left as unknown as { name: string }).name, optional: true };
    throw new E_UNSUPPORTED_PARAMETER(handler, "a destructured parameter with a default value");
  }
  if (param.type === "RestElement") throw new E_UNSUPPORTED_PARAMETER(handler, "a rest parameter (...args)");
  if (param.type === "ObjectPattern" || param.type === "ArrayPattern") {
    throw new E_UNSUPPORTED_PARAMETER(handler, "a destructured parameter");
  }
  throw new E_UNSUPPORTED_PARAMETER(handler, `a parameter of kind ${param.type}`);
}
