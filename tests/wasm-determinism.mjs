// Runs the engine's reference bot game compiled to wasm32-unknown-unknown under Node and compares
// its state hash with the native build's (`orbis simulate`), for several seeds.
// Usage: node tests/wasm-determinism.mjs <path to orbis_wasm_check.wasm> <path to orbis binary>
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const [wasmPath, orbis] = process.argv.slice(2);

test('wasm and native builds reach the same state hash', async () => {
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
  const { reference_hash, memory } = instance.exports;
  for (const seed of [0n, 1n, 7n, 12345n]) {
    const ptr = reference_hash(seed);
    const wasmHex = Buffer.from(new Uint8Array(memory.buffer, ptr, 64)).toString('ascii');
    const out = execFileSync(orbis, ['simulate', '--players', '4', '--bot', 'normal', '--games', '1',
      '--seed', String(seed), '--max-turns', '200']).toString();
    const nativeHex = JSON.parse(out.split('\n')[0]).state_hash;
    assert.match(wasmHex, /^[0-9a-f]{64}$/);
    assert.equal(wasmHex, nativeHex, `seed ${seed}`);
    console.log(`seed ${seed}: ${wasmHex}`);
  }
  // The hard bot's look-ahead (rollouts with its own dice, float odds tables) decides the same.
  const { reference_hash_hard } = instance.exports;
  for (const seed of [0n, 3n]) {
    const ptr = reference_hash_hard(seed);
    const wasmHex = Buffer.from(new Uint8Array(memory.buffer, ptr, 64)).toString('ascii');
    const out = execFileSync(orbis, ['simulate', '--players', '4', '--bot', 'hard', '--games', '1',
      '--seed', String(seed), '--max-turns', '40']).toString();
    const nativeHex = JSON.parse(out.split('\n')[0]).state_hash;
    assert.match(wasmHex, /^[0-9a-f]{64}$/);
    assert.equal(wasmHex, nativeHex, `hard, seed ${seed}`);
    console.log(`hard, seed ${seed}: ${wasmHex}`);
  }
  // The orders ruleset's computer powers (integer values, seeded choices) order the same.
  const { reference_hash_orders } = instance.exports;
  for (const [seed, level] of [[0n, 'normal'], [5n, 'normal'], [1n, 'easy']]) {
    const ptr = reference_hash_orders(seed, level === 'easy' ? 1 : 0);
    const wasmHex = Buffer.from(new Uint8Array(memory.buffer, ptr, 64)).toString('ascii');
    const seats = Array(7).fill(level).join(',');
    const out = execFileSync(orbis, ['tournament', '--ruleset', 'orders', '--seats', seats,
      '--games', '1', '--seed', String(seed), '--max-year', '1915']).toString();
    const nativeHex = JSON.parse(out.split('\n')[0]).state_hash;
    assert.match(wasmHex, /^[0-9a-f]{64}$/);
    assert.equal(wasmHex, nativeHex, `orders ${level}, seed ${seed}`);
    console.log(`orders ${level}, seed ${seed}: ${wasmHex}`);
  }
  // The orders ruleset's hard powers (a search with the adjudicator, integer scores) order the same.
  const { reference_hash_orders_hard } = instance.exports;
  for (const seed of [0n, 6n]) {
    const ptr = reference_hash_orders_hard(seed, 1904);
    const wasmHex = Buffer.from(new Uint8Array(memory.buffer, ptr, 64)).toString('ascii');
    const out = execFileSync(orbis, ['tournament', '--ruleset', 'orders', '--seats',
      Array(7).fill('hard').join(','), '--games', '1', '--seed', String(seed), '--max-year', '1904']).toString();
    const nativeHex = JSON.parse(out.split('\n')[0]).state_hash;
    assert.match(wasmHex, /^[0-9a-f]{64}$/);
    assert.equal(wasmHex, nativeHex, `orders hard, seed ${seed}`);
    console.log(`orders hard, seed ${seed}: ${wasmHex}`);
  }
  // The economy ruleset (initiative, battles, revolutions, both bots) plays the same.
  const { reference_hash_economy } = instance.exports;
  for (const [seed, level] of [[0n, 'easy'], [2n, 'easy'], [9n, 'easy'], [1n, 'normal'], [4n, 'normal']]) {
    const ptr = reference_hash_economy(seed, 40, level === 'normal' ? 1 : 0);
    const wasmHex = Buffer.from(new Uint8Array(memory.buffer, ptr, 64)).toString('ascii');
    const out = execFileSync(orbis, ['simulate', '--ruleset', 'economy', '--players', '4',
      '--bot', level, '--games', '1', '--seed', String(seed), '--max-turns', '40']).toString();
    const nativeHex = JSON.parse(out.split('\n')[0]).state_hash;
    assert.match(wasmHex, /^[0-9a-f]{64}$/);
    assert.equal(wasmHex, nativeHex, `economy ${level}, seed ${seed}`);
    console.log(`economy ${level}, seed ${seed}: ${wasmHex}`);
  }
  // The deal's cryptography (ristretto255 on wasm32's own backend): three seeded shuffles prove
  // and verify, and the same positions open to the same cards as natively (the native test
  // the_reference_deal in crates/wasm-check asserts the same list).
  const { deal_setup, deal_shuffle, deal_verify, deal_draw } = instance.exports;
  deal_setup(3, 44);
  for (let i = 0; i < 3; i++) {
    assert.equal(deal_shuffle(), 1, 'a shuffle is made');
    assert.equal(deal_verify(), 1, 'and it verifies');
  }
  const cards = Array.from({ length: 6 }, () => deal_draw());
  assert.deepEqual(cards, [38, 9, 18, 40, 29, 36]);
  console.log(`deal: ${cards.join(' ')}`);
});
