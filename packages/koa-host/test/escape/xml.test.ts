import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { escapeXml, isXmlName, toXml } from "../../src/escape/xml.js";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  isArray: (name) => name === "item",
});

function parse(xml: string): Record<string, unknown> {
  assert.equal(XMLValidator.validate(xml), true, `not valid XML: ${xml}`);
  return parser.parse(xml) as Record<string, unknown>;
}

describe("toXml", () => {
  test("declaration and <response> root", () => {
    const xml = toXml({ a: 1 });
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<response>'));
    assert.deepEqual(parse(xml)["response"], { a: "1" });
  });

  test("nested objects and arrays as repeated <item>", () => {
    const xml = toXml({ shop: { name: "Tea", tags: ["green", "black"], rows: [{ id: 1 }, { id: 2 }] } });
    const shop = (parse(xml)["response"] as Record<string, Record<string, unknown>>)["shop"]!;
    assert.equal(shop["name"], "Tea");
    assert.deepEqual(shop["tags"], { item: ["green", "black"] });
    assert.deepEqual(shop["rows"], { item: [{ id: "1" }, { id: "2" }] });
    assert.match(xml, /<tags><item>green<\/item><item>black<\/item><\/tags>/);
  });

  test("a top-level array is a list of <item>", () => {
    assert.equal(
      toXml([1, "a"]),
      '<?xml version="1.0" encoding="UTF-8"?>\n<response><item>1</item><item>a</item></response>',
    );
  });

  test("null as an empty element, booleans as true/false, undefined dropped", () => {
    const xml = toXml({ none: null, yes: true, no: false, gone: undefined, fn: () => 1, list: [null, undefined] });
    assert.match(xml, /<none\/>/);
    assert.match(xml, /<yes>true<\/yes><no>false<\/no>/);
    assert.doesNotMatch(xml, /gone|fn/);
    assert.match(xml, /<list><item\/><item\/><\/list>/);
    parse(xml);
  });

  test("dates as ISO 8601; invalid dates empty", () => {
    const xml = toXml({ at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), bad: new Date("nope") });
    assert.match(xml, /<at>2024-01-02T03:04:05\.000Z<\/at>/);
    assert.match(xml, /<bad\/>/);
  });

  test("text is escaped and round-trips through a parser", () => {
    const text = `<script>alert("x") & 'y'</script>`;
    const xml = toXml({ text });
    assert.doesNotMatch(xml, /<script>/);
    const strict = new XMLParser({ parseTagValue: false, processEntities: true });
    assert.equal((strict.parse(xml) as { response: { text: string } }).response.text, text);
  });

  test("characters XML cannot hold become U+FFFD instead of breaking the document", () => {
    const xml = toXml({ text: "a\u0000b\u0007c\uD800d" });
    parse(xml);
    assert.match(xml, /<text>a\uFFFDb\uFFFDc\uFFFDd<\/text>/);
  });

  test('keys that are not XML names become <key name="...">', () => {
    const xml = toXml({ "two words": 1, "1st": 2, "a:b": 3, xmlThing: 4, 'q"uote<': 5, ok_key: 6, "é-t.é": 7 });
    const response = parse(xml)["response"] as Record<string, unknown>;
    const keys = response["key"] as Array<Record<string, string>>;
    assert.deepEqual(
      keys.map((k) => [k["@name"], k["#text"]]),
      [
        ["two words", "1"],
        ["1st", "2"],
        ["a:b", "3"],
        ["xmlThing", "4"],
        ['q"uote<', "5"],
      ],
    );
    assert.equal(response["ok_key"], "6");
    assert.equal(response["é-t.é"], "7");
  });

  test("numbers: finite as written, NaN and Infinity empty, bigint as digits", () => {
    assert.match(
      toXml({ a: 1.5, b: Number.NaN, c: Infinity, d: 10n ** 20n }),
      /<a>1\.5<\/a><b\/><c\/><d>100000000000000000000<\/d>/,
    );
  });

  test("toJSON, Map and Set are honoured", () => {
    const model = { toJSON: () => ({ id: 7 }) };
    const xml = toXml({ model, map: new Map([["k", "v"]]), set: new Set([1, 2]) });
    assert.match(xml, /<model><id>7<\/id><\/model><map><k>v<\/k><\/map><set><item>1<\/item><item>2<\/item><\/set>/);
  });

  test("a scalar result is the text of <response>; empty object an empty root", () => {
    assert.match(toXml("hi & bye"), /<response>hi &amp; bye<\/response>$/);
    assert.match(toXml({}), /<response\/>$/);
    assert.match(toXml(undefined), /<response\/>$/);
  });

  test("a cycle is a coded error, not a stack overflow", () => {
    const value: Record<string, unknown> = { a: {} };
    (value["a"] as Record<string, unknown>)["back"] = value;
    assert.throws(() => toXml(value), { code: "E_XML_CYCLE" });
    const shared = { x: 1 };
    assert.doesNotThrow(() => toXml({ one: shared, two: shared }));
  });

  test("isXmlName and escapeXml", () => {
    assert.equal(isXmlName("abc"), true);
    assert.equal(isXmlName("_a-b.c"), true);
    assert.equal(isXmlName("-a"), false);
    assert.equal(isXmlName(""), false);
    assert.equal(isXmlName("XML"), false);
    assert.equal(escapeXml(`&<>"'`), "&amp;&lt;&gt;&quot;&apos;");
  });
});
