// Times duels in the static site's WebAssembly under Node.js: `node web/bench.mjs target/site`
// after `bash web/build-static.sh`. Prints the games per second (best of three, after a
// warm-up) and a_wins, which must equal the command line's for the same seed.
import fs from 'node:fs';
import path from 'node:path';
const site = process.argv[2];
const mod = await import(path.resolve(site, 'wuerfelglueck_web.js'));
await mod.default({module_or_path: fs.readFileSync(path.join(site, 'wuerfelglueck_web_bg.wasm'))});
const runs = [['1..6', '1..6', {}], ['1..6', '1,1,1,6,6,6', {}]];
for (const [a, b, extra] of runs) {
  const options = JSON.stringify(Object.assign({a, b, games: 400000, seed: 1}, extra));
  mod.execute('duel', options, () => {}); // warm up
  const best = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    const out = JSON.parse(mod.execute('duel', options, () => {}));
    best.push(performance.now() - t);
    if (r === 0) console.log(a, 'vs', b, 'a_wins', out.a_wins);
  }
  const ms = Math.min(...best);
  console.log(`${a} vs ${b}: ${(400000 / ms * 1000).toFixed(0)} games/s (best of 3: ${ms.toFixed(0)} ms)`);
}
