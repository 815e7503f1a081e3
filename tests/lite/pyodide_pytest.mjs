// Run pytest in the offline site's own Pyodide, under node (tests/lite/test_limits_in_pyodide.py).
//   node pyodide_pytest.mjs SITE REPO PURELIB WHEEL... -- PYTEST_ARG...
// SITE: the built site (its static/pyodide and static/pyodide-lock); REPO: mounted at /repo, its src/
// and tests/exercises/ put first on sys.path; PURELIB: a folder of pure-Python packages (pytest's),
// mounted at /purelib, last on sys.path; WHEEL: the site's wheels to load (Hypothesis...).
import path from "node:path";
import { pathToFileURL } from "node:url";

const [site, repo, purelib, ...rest] = process.argv.slice(2);
const cut = rest.indexOf("--");
const wheels = rest.slice(0, cut);
const args = rest.slice(cut + 1);
const { loadPyodide } = await import(pathToFileURL(path.join(site, "static", "pyodide", "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: path.join(site, "static", "pyodide") + "/" });
await py.loadPackage(wheels, { messageCallback: () => {} });
for (const [where, folder] of [["/repo", repo], ["/purelib", purelib]]) {
  py.FS.mkdir(where);
  py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, where);
}
py.setStdout({ batched: (s) => console.log(s) });
py.setStderr({ batched: (s) => console.error(s) });
py.globals.set("ARGS", py.toPy(args));
const code = await py.runPythonAsync(`
import os, sys
sys.path[:0] = ["/repo/src", "/repo/tests/exercises"]
sys.path.append("/purelib")
os.chdir("/repo")
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
import pytest
int(pytest.main(["-p", "no:cacheprovider", *ARGS]))
`);
process.exit(code);
