// Times the deal's cryptography compiled to wasm32 (as the browser runs it) under Node: one
// shuffle with its proof, its verification, and a draw (every participant's share made and
// checked), for 3 and 6 participants and the 44-card territory deck. Prints figures; asserts
// nothing about speed (figures go in the issue note).
// Usage: node tests/bench-deal.mjs <path to orbis_wasm_check.wasm>
import { readFileSync } from 'node:fs';

const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[2]), {});
const { deal_setup, deal_shuffle, deal_verify, deal_draw } = instance.exports;
const time = (f) => { const t = performance.now(); const r = f(); return [performance.now() - t, r]; };
for (const players of [3, 6]) {
  deal_setup(players, 44);
  let prove = 0, verify = 0;
  for (let i = 0; i < players; i++) {
    const [tp, ok1] = time(deal_shuffle);
    const [tv, ok2] = time(deal_verify);
    if (ok1 !== 1 || ok2 !== 1) throw new Error('a shuffle failed to verify');
    prove += tp; verify += tv;
  }
  const draws = 20;
  const [td] = time(() => { for (let i = 0; i < draws; i++) if (deal_draw() === 0xffffffff) throw new Error('a draw failed'); });
  const p = prove / players, v = verify / players;
  console.log(`wasm, ${players} players, 44 cards: shuffle ${p.toFixed(1)} ms to prove, ${v.toFixed(1)} ms to verify; `
    + `initial shuffle by everyone, one peer's share of the work (its shuffle + checking all ${players}) ${(p + verify).toFixed(0)} ms; `
    + `a draw (every share made and checked) ${(td / draws).toFixed(2)} ms`);
}
