// No function of the front end is longer than 50 lines (issue 31; tests/test_function_length.py is the
// Python side's rule, 60). The functions that were longer when the limit came are listed in ALLOWED with
// their length then: each may only get shorter, and leaves the list once it is within the limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import ts from "typescript";

export const LIMIT = 50;

/** Today's offenders (2026-11-26), "file name" -> lines: shorten them, then remove them. */
export const ALLOWED = {};

/** Every function of a module, with its name and its length in lines. */
export function functionLengths(file) {
  const text = readFileSync(new URL(file, import.meta.url), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const out = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name ? node.name.getText() : ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : "(anonymous)";
      out.push({ file, name, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const modules = readdirSync(new URL(".", import.meta.url)).filter((f) => f.endsWith(".js") && !f.endsWith(".test.js"));

const key = (f) => `${f.file} ${f.name}`;

test(`no function of the front end is over ${LIMIT} lines`, () => {
  const all = modules.flatMap(functionLengths).sort((a, b) => b.lines - a.lines);
  const longest = all[0];
  console.log(`longest function: ${longest.file} ${longest.name}, ${longest.lines} lines`);
  assert.deepEqual(all.filter((f) => f.lines > LIMIT && !(key(f) in ALLOWED)), []);
});

test("the allow-listed functions only get shorter, and leave the list within the limit", () => {
  const all = modules.flatMap(functionLengths);
  for (const [name, listed] of Object.entries(ALLOWED)) {
    const found = all.filter((f) => key(f) === name);
    const lines = Math.max(0, ...found.map((f) => f.lines));
    assert.ok(lines <= listed, `${name} grew from ${listed} to ${lines} lines`);
    assert.ok(lines > LIMIT, `${name} is ${lines} lines now (or gone): remove it from ALLOWED`);
  }
});
