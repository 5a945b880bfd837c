import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { test } from "node:test";
import type { ClassOrMethodDecoratorLike, ConformanceResults } from "../adapter.js";
import type { ClientResponse } from "../client.js";
import type { GroupClient, SuiteContext } from "../suite.js";
import { expectStatus } from "../suite.js";

const TITLE = "the result table (docs/views.md)";
const MODULE = "conformance/results";

/** A class instance with its own fields and a method: written as its own fields. */
class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  norm(): number {
    return Math.hypot(this.x, this.y);
  }
}

/** A class instance with `toJSON` (as models have): written as what `toJSON()` gives. */
class Money {
  constructor(readonly cents: number) {}
  toJSON(): unknown {
    return { amount: (this.cents / 100).toFixed(2) };
  }
}

type Kind = "html" | "json" | "xml";
type Expect = (response: ClientResponse) => void;

/** One row of the table: the value a view returns and what each kind answers. */
interface Row {
  readonly method: string;
  readonly title: string;
  readonly value: (r: ConformanceResults) => unknown;
  /** The rows whose HTML answer renders the route's template. */
  readonly template?: boolean;
  readonly html: Expect;
  readonly json: Expect;
  readonly xml: Expect;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

function ok(status: number, type: string, body: string): Expect {
  return (response) => {
    expectStatus(response, status, `expected ${type}`);
    assert.equal(response.type, type);
    assert.equal(response.text, body);
  };
}
const html = (body: string) => ok(200, "text/html", body);
const plain = (body: string) => ok(200, "text/plain", body);
const json = (body: string) => ok(200, "application/json", body);
const xml = (inner: string) => ok(200, "application/xml", `${XML_HEAD}${inner}`);
const noContent: Expect = (response) => {
  expectStatus(response, 204, "no content");
  assert.equal(response.text, "");
};
const serverError: Expect = (response) => {
  expectStatus(response, 500, "a coded 500");
  assert.doesNotMatch(response.text, /function|Symbol/, "the value is not shown to the client");
};
const bytes: Expect = (response) => {
  expectStatus(response, 200, "bytes");
  assert.equal(response.type, "application/octet-stream");
  assert.equal(response.text, "raw\u0001bytes");
};
const streamed: Expect = (response) => {
  expectStatus(response, 200, "a stream");
  assert.equal(response.text, "one,two");
};
const created =
  (type: string, body: string): Expect =>
  (response) => {
    expectStatus(response, 201, "a reply");
    assert.equal(response.headers["x-result"], "kept");
    assert.equal(response.type, type);
    assert.equal(response.text, body);
  };
const moved: Expect = (response) => {
  expectStatus(response, 302, "a redirect");
  assert.equal(response.headers["location"], "/elsewhere");
  assert.doesNotMatch(response.text, /template:/, "a redirect renders no template, even where the route has one");
};
const jsonError =
  (status: number, message: string): Expect =>
  (response) => {
    expectStatus(response, status, "a returned HTTP error");
    assert.equal(response.type, "application/json");
    assert.deepEqual(response.json(), { error: { status, message } });
  };

/** Every row of the table, in the order docs/views.md lists them. */
const ROWS: readonly Row[] = [
  {
    method: "nothing",
    title: "undefined",
    value: () => undefined,
    template: true,
    html: html("template:"),
    json: noContent,
    xml: noContent,
  },
  {
    method: "nil",
    title: "null",
    value: () => null,
    template: true,
    html: html("template:"),
    json: json("null"),
    xml: xml("<response/>"),
  },
  {
    method: "markup",
    title: "a string starting with <",
    value: () => "<p>hi</p>",
    html: html("<p>hi</p>"),
    json: json('"<p>hi</p>"'),
    xml: xml("<response>&lt;p&gt;hi&lt;/p&gt;</response>"),
  },
  {
    method: "words",
    title: "a string",
    value: () => "hi & bye",
    html: plain("hi & bye"),
    json: json('"hi & bye"'),
    xml: xml("<response>hi &amp; bye</response>"),
  },
  {
    method: "number",
    title: "a number",
    value: () => 42,
    html: plain("42"),
    json: json("42"),
    xml: xml("<response>42</response>"),
  },
  {
    method: "flag",
    title: "a boolean",
    value: () => false,
    html: plain("false"),
    json: json("false"),
    xml: xml("<response>false</response>"),
  },
  {
    method: "huge",
    title: "a bigint",
    value: () => 10n ** 20n,
    html: plain("100000000000000000000"),
    json: serverError,
    xml: xml("<response>100000000000000000000</response>"),
  },
  {
    method: "dict",
    title: "a plain object",
    value: () => ({ name: "Ada" }),
    template: true,
    html: html("template:Ada"),
    json: json('{"name":"Ada"}'),
    xml: xml("<response><name>Ada</name></response>"),
  },
  {
    method: "list",
    title: "an array",
    value: () => [1, "a"],
    html: json('[1,"a"]'),
    json: json('[1,"a"]'),
    xml: xml("<response><item>1</item><item>a</item></response>"),
  },
  {
    method: "point",
    title: "a class instance",
    value: () => new Point(3, 4),
    html: json('{"x":3,"y":4}'),
    json: json('{"x":3,"y":4}'),
    xml: xml("<response><x>3</x><y>4</y></response>"),
  },
  {
    method: "money",
    title: "a class instance with toJSON",
    value: () => new Money(1250),
    html: json('{"amount":"12.50"}'),
    json: json('{"amount":"12.50"}'),
    xml: xml("<response><amount>12.50</amount></response>"),
  },
  {
    method: "buffer",
    title: "a Buffer",
    value: () => Buffer.from("raw\u0001bytes"),
    html: bytes,
    json: bytes,
    xml: bytes,
  },
  {
    method: "stream",
    title: "a stream",
    value: () => Readable.from(["one", ",two"]),
    html: streamed,
    json: streamed,
    xml: streamed,
  },
  {
    method: "created",
    title: "a reply with a status and headers",
    value: (r) => r.reply({ name: "Ada" }, { status: 201, headers: { "X-Result": "kept" } }),
    template: true,
    html: created("text/html", "template:Ada"),
    json: created("application/json", '{"name":"Ada"}'),
    xml: created("application/xml", `${XML_HEAD}<response><name>Ada</name></response>`),
  },
  {
    method: "moved",
    title: "a redirect",
    value: (r) => r.redirect("/elsewhere"),
    template: true,
    html: moved,
    json: moved,
    xml: moved,
  },
  {
    method: "refused",
    title: "a returned HTTP error",
    value: (r) => r.httpError(409, "Already taken"),
    html: (response) => {
      expectStatus(response, 409, "a returned HTTP error");
      assert.equal(response.type, "text/html");
      assert.match(response.text, /Already taken/);
    },
    json: jsonError(409, "Already taken"),
    xml: jsonError(409, "Already taken"),
  },
  { method: "fn", title: "a function", value: () => () => 1, html: serverError, json: serverError, xml: serverError },
];

/** What a view's return value becomes, per response kind: every row of the table, for every kind. */
export function resultCases(s: SuiteContext): void {
  if (!s.adapter.results) {
    test(`${TITLE}: not run`, { skip: `${s.adapter.name} declares no results part in its adapter` }, () => {});
    return;
  }
  const results: ConformanceResults = s.adapter.results;
  const kinds: Array<[Kind, ClassOrMethodDecoratorLike | undefined]> = [
    ["html", undefined],
    ["json", s.adapter.decorators.json],
    ["xml", results.xml],
  ];
  for (const [kind, decorator] of kinds) {
    if (kind === "xml" && !decorator) {
      test(`${TITLE}, xml: not run`, { skip: `${s.adapter.name} has no XML decorator` }, () => {});
      continue;
    }
    const templates =
      kind === "html"
        ? ROWS.filter((row) => row.template).map((row) => ({
            module: MODULE,
            className: "Results",
            methodName: row.method,
          }))
        : [];
    s.group(
      `${TITLE}, ${kind}`,
      () => [{ name: MODULE, exports: { Results: resultsView(s.adapter.Base, decorator, results) } }],
      (t) => {
        for (const row of ROWS) {
          t(`${kind}: ${row.title}`, async (c: GroupClient) => {
            row[kind](await c.get(s.p(`/results/${row.method}`), { headers: { accept: "text/html,*/*" } }));
          });
        }
      },
      (modules) => results.start(modules, templates),
    );
  }
}

const plainClass: ClassOrMethodDecoratorLike = () => undefined;

/** The view class of one kind (each served by its own app): a method per row, named after the row. */
function resultsView(
  Base: abstract new (...args: any[]) => object,
  kind: ClassOrMethodDecoratorLike | undefined,
  r: ConformanceResults,
) {
  const value = (method: string): unknown => ROWS.find((row) => row.method === method)!.value(r);
  @(kind ?? plainClass)
  class Results extends Base {
    nothing() {
      return value("nothing");
    }
    nil() {
      return value("nil");
    }
    markup() {
      return value("markup");
    }
    words() {
      return value("words");
    }
    number() {
      return value("number");
    }
    flag() {
      return value("flag");
    }
    huge() {
      return value("huge");
    }
    dict() {
      return value("dict");
    }
    list() {
      return value("list");
    }
    point() {
      return value("point");
    }
    money() {
      return value("money");
    }
    buffer() {
      return value("buffer");
    }
    stream() {
      return value("stream");
    }
    created() {
      return value("created");
    }
    moved() {
      return value("moved");
    }
    refused() {
      return value("refused");
    }
    fn() {
      return value("fn");
    }
  }
  return Results;
}
