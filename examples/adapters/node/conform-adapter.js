'use strict';
/**
 * Wrap a decoder as a conform implementation: protocol v1, Node.js built-ins only.
 *
 *   const { serve, Skip } = require('./conform-adapter');
 *   serve(async (suite, input, fixtureVersion) => {
 *     if (suite === 'chat') return myDecoder.decodeChat(input);   // a JSON-ready value
 *     throw new Skip('not implemented yet');
 *   }, { name: 'my-decoder', version: '1.0.0', suites: { chat: [1] } });
 *
 * `serve` speaks the persistent protocol on stdin/stdout (hello, run, bye). When the
 * environment has CONFORM_SUITE (`conform run --one-shot`), it handles the one case on
 * stdin instead and prints its output. `decode` may return a value or a Promise, throw
 * `Skip` to decline a case, or throw anything else to answer the case with `error` (the
 * stack goes to stderr, which conform attaches to the report). Cases are answered in
 * order, one at a time. stdout belongs to the protocol: console.log writes to stderr.
 *
 * Every request line other than hello and bye gets one result at once. A line this module
 * cannot read (not JSON, not an object, a run request without an integer id, an unknown op) is
 * answered with an `error` result carrying the id read from the line's start (conform writes
 * every run request as `{"op":"run","id":N,…`), or 0 when it has none. Lone-surrogate escapes
 * (`"a\udc00b"`, which `conform explore` sends) are kept by JSON.parse in the string and
 * written back escaped by JSON.stringify.
 */

const readline = require('node:readline');

const PROTOCOL = 1;

class Skip extends Error {
  constructor(reason) {
    super(String(reason));
    this.name = 'Skip';
  }
}

function encode(message) {
  return JSON.stringify(message) + '\n';
}

function write(text) {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** How conform starts every run request line: the id comes before the input. */
const REQUEST_START = /^\s*\{\s*"op"\s*:\s*"run"\s*,\s*"id"\s*:\s*(\d{1,15})(?=[\s,}])/;

/** The error result line for a request line this module cannot read. */
function unreadable(line, why) {
  console.error(`conform-adapter: cannot read a request: ${why}`);
  const start = REQUEST_START.exec(line);
  // 0 is an id conform never uses: the case in flight becomes a protocol error at once.
  const id = start ? Number(start[1]) : 0;
  return encode({ op: 'result', id, error: `the adapter could not read the request: ${why}` });
}

/** The encoded result line for a run request with an integer id. */
async function answer(decode, message) {
  const { id } = message;
  try {
    if (!('suite' in message && 'input' in message && 'fixtureVersion' in message)) {
      throw new Error('the run request lacks suite, fixtureVersion or input');
    }
    const output = await decode(message.suite, message.input, message.fixtureVersion);
    // Encoded here, so an output that is not JSON (a BigInt, a cycle) is this case's error rather than a crash.
    return encode({ op: 'result', id, output: output === undefined ? null : output });
  } catch (err) {
    if (err instanceof Skip) return encode({ op: 'result', id, skipped: err.message });
    console.error(err && err.stack ? err.stack : String(err));
    return encode({ op: 'result', id, error: err && err.message ? `${err.name}: ${err.message}` : String(err) });
  }
}

async function persistent(decode, { name, version, language, suites }) {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch (err) {
      await write(unreadable(line, `the line is not JSON: ${err.message}`));
      continue;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      await write(unreadable(line, 'the line is not a JSON object'));
    } else if (message.op === 'hello') {
      await write(encode({ op: 'hello', protocol: PROTOCOL, implementation: { name, version, language }, suites }));
    } else if (message.op === 'bye') {
      break;
    } else if (message.op === 'run' && Number.isSafeInteger(message.id)) {
      await write(await answer(decode, message));
    } else if (message.op === 'run') {
      await write(unreadable(line, 'the run request has no integer id'));
    } else {
      const why = typeof message.op === 'string' ? `unknown op ${JSON.stringify(message.op)}` : 'the message has no op';
      await write(unreadable(line, why));
    }
  }
  lines.close();
  return 0;
}

async function oneShot(decode) {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const version = Number(process.env.CONFORM_FIXTURE_VERSION || '1');
  try {
    const output = await decode(process.env.CONFORM_SUITE, input, version);
    await write(encode(output === undefined ? null : output));
    return 0;
  } catch (err) {
    console.error(err instanceof Skip ? `skipped: ${err.message}` : (err && err.stack) || String(err));
    return 1;
  }
}

/** Serves `decode` until bye (persistent mode) or for one case (one-shot mode). */
function serve(decode, { name, version, suites, language = 'javascript' }) {
  // A stray console.log must not corrupt the protocol.
  console.log = console.error;
  const run = process.env.CONFORM_SUITE ? oneShot(decode) : persistent(decode, { name, version, language, suites });
  run.then(
    (code) => {
      process.exitCode = code;
      // Let pending writes drain, then leave even if the decoder keeps handles open.
      process.stdout.write('', () => process.exit(code));
    },
    (err) => {
      console.error((err && err.stack) || String(err));
      process.exit(1);
    },
  );
}

module.exports = { serve, Skip };
