'use strict';
/**
 * A stand-in decoder for the examples: asks conform's own reference implementations,
 * through `conform adapter`, for each output. It shows the adapter end to end before
 * your decoder is wired in, and how to wrap a decoder that runs in another process.
 * The conform binary is taken from $CONFORM_BIN, else `conform` on PATH, else this
 * repository's target/ folder.
 */

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');

let child = null;
let nextId = 0;
let declared = {};
const waiting = new Map();

function conformBinary() {
  if (process.env.CONFORM_BIN) return process.env.CONFORM_BIN;
  for (const folder of (process.env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(folder, 'conform');
    if (folder && fs.existsSync(candidate)) return candidate;
  }
  const repo = path.resolve(__dirname, '..', '..', '..');
  const built = ['release', 'debug']
    .map((profile) => path.join(repo, 'target', profile, 'conform'))
    .filter((candidate) => fs.existsSync(candidate))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  // The most recent build, release or debug.
  if (built.length > 0) return built[0];
  throw new Error('conform binary not found: set CONFORM_BIN or put conform on PATH');
}

function start() {
  // In one-shot mode this process sees CONFORM_SUITE & co.; `conform adapter` must
  // not, or it would take them as its own one-shot case.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('CONFORM_')));
  child = spawn(conformBinary(), ['adapter'], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    const key = message.op === 'hello' ? 'hello' : message.id;
    const pending = waiting.get(key);
    if (pending) {
      waiting.delete(key);
      pending.resolve(message);
    }
  });
  child.on('exit', () => {
    for (const pending of waiting.values()) pending.reject(new Error('conform adapter exited'));
    waiting.clear();
    child = null;
  });
  return ask('hello', { op: 'hello', protocol: 1, harness: { name: 'reference-decoder.js', version: '1' } }).then(
    (hello) => {
      declared = hello.suites;
    },
  );
}

/** The suites the reference implements, with their fixtureVersions. */
async function suites() {
  if (child === null) await start();
  return { ...declared };
}

function ask(key, message) {
  return new Promise((resolve, reject) => {
    waiting.set(key, { resolve, reject });
    child.stdin.write(JSON.stringify(message) + '\n');
  });
}

/** The reference's output for one case; rejects with its error message. */
async function decode(suite, input, fixtureVersion) {
  if (child === null) await start();
  nextId += 1;
  const reply = await ask(nextId, { op: 'run', id: nextId, suite, fixture: '', fixtureVersion, input });
  if ('output' in reply) return reply.output;
  throw new Error(reply.error || reply.skipped || 'no output');
}

module.exports = { decode, suites };
