import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseXml } from "../../src/testing/xml.js";

describe("test client: XML answers", () => {
  test("parseXml reads elements, attributes, entities, CDATA and repeated items", () => {
    const root = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- feed --><response><shop>Tea &amp; more</shop><items><item>1</item><item>2</item></items>' +
        '<key name="a b">x &#233; &#x41;</key><empty/><note><![CDATA[<b>raw</b>]]></note></response>',
    );
    assert.equal(root.name, "response");
    assert.equal(root.find("shop")?.text, "Tea & more");
    assert.deepEqual(
      root.findAll("item").map((item) => item.text),
      ["1", "2"],
    );
    assert.equal(root.find("key")?.attributes["name"], "a b");
    assert.equal(root.find("key")?.text, "x é A");
    assert.equal(root.find("empty")?.text, "");
    assert.equal(root.find("note")?.text, "<b>raw</b>");
    assert.equal(root.find("missing"), undefined);
  });

  test("parseXml refuses what is not well-formed XML, naming the problem", () => {
    assert.throws(() => parseXml("<a><b></a>"), /<\/a> closes <b>/);
    assert.throws(() => parseXml("<a>"), /<a> is never closed/);
    assert.throws(() => parseXml("plain text"), /text outside the root element/);
    assert.throws(() => parseXml("<a/><b/>"), /a second root element/);
    assert.throws(() => parseXml(""), /no root element/);
  });
});
