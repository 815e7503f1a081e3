// No function of the front end is longer than about 80 lines (the rule; the Python side has its own).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import ts from "typescript";

export const LIMIT = 80;

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

test(`no function of the front end is over ${LIMIT} lines`, () => {
  const all = modules.flatMap(functionLengths).sort((a, b) => b.lines - a.lines);
  const longest = all[0];
  console.log(`longest function: ${longest.file} ${longest.name}, ${longest.lines} lines`);
  assert.deepEqual(all.filter((f) => f.lines > LIMIT), []);
});
