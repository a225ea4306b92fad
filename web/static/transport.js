// How the static site's pages reach the commands: wuerfelglueck compiled to WebAssembly and
// run in Web Workers, so the page stays responsive while it plays. The same three functions
// (post, stream, exampleFiles) as the server's transport.js; no request leaves the browser.
'use strict';

const worker = () => new Worker('worker.js', {type: 'module'});

// One worker holds the games (they live in its memory) and answers the short calls.
const home = worker();
const calls = new Map();
let lastCall = 0;
home.onmessage = ({data}) => {
  const call = calls.get(data.id);
  if (!call || data.progress) return;
  calls.delete(data.id);
  if (data.error !== undefined) call.reject(new Error(data.error)); else call.resolve(data.result);
};
home.onerror = e => {
  for (const call of calls.values()) call.reject(new Error(workerFailed(e)));
  calls.clear();
};

function workerFailed(e) {
  return `the page's worker failed (${e.message || 'it could not load wuerfelglueck_web.wasm'})`;
}

// A command's JSON answer; a refusal is thrown with its message.
function post(path, body) {
  return new Promise((resolve, reject) => {
    const id = ++lastCall;
    calls.set(id, {resolve, reject});
    home.postMessage({id, path, body});
  });
}

// A long command in a worker of its own: progress to onProgress, then the result. cancel()
// ends the worker, and the work with it.
function stream(command, options, onProgress) {
  const w = worker();
  let fail;
  const promise = new Promise((resolve, reject) => {
    fail = reject;
    w.onmessage = ({data}) => {
      if (data.progress) { if (onProgress) onProgress(data.progress); return; }
      w.terminate();
      if (data.error !== undefined) reject(new Error(data.error)); else resolve(data.result);
    };
    w.onerror = e => { w.terminate(); reject(new Error(workerFailed(e))); };
    w.postMessage({id: 0, path: command, body: options});
  });
  return {promise, cancel() { w.terminate(); fail(new Error('cancelled')); }};
}

// The organisers' example files with their dice.
function exampleFiles() {
  return post('examples', null);
}
