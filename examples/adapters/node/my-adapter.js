#!/usr/bin/env node
'use strict';
/**
 * A complete conform adapter in Node.js: copy this file and conform-adapter.js next to
 * your decoder and replace the body of `decode`.
 *
 *   conform run fixtures --impl-cmd 'node my-adapter.js'              # persistent (fast)
 *   conform run fixtures --impl-cmd 'node my-adapter.js' --one-shot   # one process per case
 *   conform check-adapter --impl-cmd 'node my-adapter.js'             # protocol smoke test
 *
 * As shipped, `decode` asks conform's own reference (reference-decoder.js), so every
 * case passes and the wiring can be tried before any decoder exists. A TypeScript
 * decoder can be wired the same way after compiling it, or with `npx tsx my-adapter.ts`.
 */

const { serve, Skip } = require('./conform-adapter');
const reference = require('./reference-decoder');

// The suites this adapter implements, with the fixtureVersions of each, e.g.
// { chat: [1, 2], sse: [1, 2] } (declare 2 once the decoder follows HAPI's fixtureVersion 2).
// Cases of other suites or versions are reported as `unsupported` and never sent;
// fixtureVersion says which rules a case wants. As shipped: every suite and version the
// stand-in reference implements (filled in below).
let SUITES = {};

/**
 * Maps a case's input part to its output (the suite's expected part). `suite` is a
 * suite name from SUITES ('chat', 'sse', …, 'runtime-session'; docs/suites.md and each
 * suite's README give its input and expected parts: for 'runtime-session' the input is
 * the script {runtime, clientInfo?, steps} and the output {steps: [{expectedWrites,
 * expectedEvents}], expectedState}). Return a JSON-ready value (or a Promise of one),
 * throw new Skip('reason') to decline, or throw anything else to make the case an `error`.
 */
async function decode(suite, input, fixtureVersion) {
  if (!(suite in SUITES)) throw new Skip(`suite ${suite} is not wired in yet`);
  // Replace this line with a call into your decoder, for example:
  //   return projectChat(input.messages, input.agentState ?? null);
  return reference.decode(suite, input, fixtureVersion);
}

reference.suites().then((suites) => {
  SUITES = suites;
  serve(decode, { name: 'example-node', version: '1.0.0', language: 'javascript', suites: SUITES });
});
