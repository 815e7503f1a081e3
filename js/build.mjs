// Bundle js/ into the single-file ES module anywidget loads, with esbuild (`make js` installs it):
//   node js/build.mjs           write src/ipyminesweeper/static/widget.js and widget.css (minified)
//   node js/build.mjs --dev     the same, readable, with an inline source map (for `make js-watch`)
//   bundle() / css() / STATIC_DIR   used by js/bundle.test.js to check the committed files are up to date
//
// The minified bundle carries no source map: anywidget saves the module's text into the notebook's widget
// state, so a map there would double the saved size. `--dev` builds are for a developer's own page only.
// The constants come from Python (js/constants.js, written by scripts/export_constants.py).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));
export const STATIC_DIR = join(HERE, "..", "src", "ipyminesweeper", "static");
const ENTRY = join(HERE, "widget.js");

/** The bundle's text: every module js/widget.js imports, in one ES module. */
export async function bundle({ dev = false } = {}) {
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    target: "es2020",
    minify: !dev,
    sourcemap: dev ? "inline" : false,
    legalComments: "none",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** The stylesheet: js/widget.css, minified unless `dev`. */
export async function css({ dev = false } = {}) {
  const text = readFileSync(join(HERE, "widget.css"), "utf8");
  if (dev) return text;
  const result = await esbuild.transform(text, { loader: "css", minify: true, target: "chrome100", charset: "utf8" });
  return result.code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dev = process.argv.includes("--dev");
  mkdirSync(STATIC_DIR, { recursive: true });
  writeFileSync(join(STATIC_DIR, "widget.js"), await bundle({ dev }));
  writeFileSync(join(STATIC_DIR, "widget.css"), await css({ dev }));
  console.log(`wrote ${join(STATIC_DIR, "widget.js")} and widget.css${dev ? " (dev: not for committing)" : ""}`);
}
