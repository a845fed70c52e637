// Stops `npm run demo` and `npm test` in a clone at once (predemo, pretest), with one line, when the Node.js
// running them is older than package.json's `engines.node`: on Node 20 the demo would otherwise fail deep
// inside a dependency, and vitest's reporter crash. (`npm install` is stopped earlier, by `engine-strict` in
// .npmrc: npm runs a root preinstall only after installing every dependency.) Written for every Node.js
// still in use (no syntax newer than Node 8): it must run on the versions it turns away.
/* global module, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: it runs on Node 8 and up */
'use strict';
var fs = require('fs');
var path = require('path');

var INSTALL = 'export PATH="$(bash scripts/install-node.sh 22)":$PATH';

/** `[major, minor, patch]` of "v20.19.0", "22.15.0" or ">=22.15.0"; undefined when there is none. */
function parts(version) {
  var match = /(\d+)\.(\d+)\.(\d+)/.exec(String(version));
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** The Node.js version package.json's `engines.node` (">=22.15.0") asks for. */
function needed(root) {
  var engines = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines || {};
  var found = parts(engines.node);
  if (!found) throw new Error('check-node: package.json has no engines.node of the form ">=22.15.0"');
  return found;
}

/**
 * The one line that says `found` is too old for `need`, or undefined when it is new enough.
 * check('v20.19.0', [22, 15, 0]) -> 'toolhooks needs Node.js 22.15 or newer; this is Node.js 20.19.0. Get it: export PATH=...'
 */
function check(found, need) {
  var have = parts(found);
  if (have) {
    for (var i = 0; i < 3; i++) {
      if (have[i] > need[i]) return undefined;
      if (have[i] < need[i]) break;
      if (i === 2) return undefined;
    }
  }
  return (
    'toolhooks needs Node.js ' + need[0] + '.' + need[1] + ' or newer; this is Node.js ' + String(found).replace(/^v/, '') +
    ' (' + process.execPath + '). Get it with: ' + INSTALL
  );
}

module.exports = { check: check, needed: needed, INSTALL: INSTALL };

if (require.main === module) {
  var problem = check(process.version, needed(path.join(__dirname, '..')));
  if (problem) {
    process.stderr.write(problem + '\n');
    process.exit(1);
  }
}
