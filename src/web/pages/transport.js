// How the pages reach the commands: this server's API over HTTP. The static site ships
// another transport.js with the same three functions (post, stream, exampleFiles), backed
// by a Web Worker.
'use strict';

// A command's JSON answer (POST /api/PATH); a refusal is thrown with the server's message.
async function post(path, body) {
  const r = await fetch('/api/' + path, {method: 'POST', headers: {'content-type': 'application/json'},
    body: JSON.stringify(body)});
  const j = await r.json().catch(() => ({error: `HTTP ${r.status}`}));
  if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
  return j;
}

// A command as server-sent events: progress to onProgress, then the result. cancel() closes
// the stream, which stops the job on the server.
function stream(command, options, onProgress) {
  let es, fail;
  const promise = new Promise((resolve, reject) => {
    fail = reject;
    es = new EventSource(`/api/${command}/events?options=` + encodeURIComponent(JSON.stringify(options)));
    es.addEventListener('progress', e => onProgress && onProgress(JSON.parse(e.data)));
    es.addEventListener('result', e => { es.close(); resolve(JSON.parse(e.data)); });
    es.addEventListener('error', e => {
      es.close();
      let m = 'the connection to the server failed';
      if (e.data) { try { m = JSON.parse(e.data).error; } catch (_) { m = e.data; } }
      reject(new Error(m));
    });
  });
  return {promise, cancel() { es.close(); fail(new Error('cancelled')); }};
}

// The organisers' example files with their dice.
function exampleFiles() {
  return fetch('/api/examples').then(r => r.json());
}
