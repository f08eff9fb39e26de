// The language server collects its garbage once it has rested after checking (lsp/idle-collection.ts), never while
// a check is scheduled or under way, and once per rest however many checks came before it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IdleCollection } from '../server/src/lsp/idle-collection.js';

const rest = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('idle collection', () => {
  test('a rest after checks collects once; checks meanwhile postpone it', async () => {
    const collections: number[] = [];
    const idle = new IdleCollection(() => false, (ms) => collections.push(ms), 40);
    idle.checked();
    await rest(10);
    idle.checked();
    idle.checked();
    assert.equal(collections.length, 0, 'not while checks keep coming');
    await rest(200);
    assert.equal(collections.length, 1);
    assert.ok(collections[0]! >= 0);
  });

  test('a check scheduled or under way when the rest ends: no collection until the one after it', async () => {
    let busy = true;
    const collections: number[] = [];
    const idle = new IdleCollection(() => busy, (ms) => collections.push(ms), 20);
    idle.checked();
    await rest(100);
    assert.equal(collections.length, 0);
    busy = false;
    idle.checked();
    await rest(100);
    assert.equal(collections.length, 1);
  });

  test('stopped (the server shut down): nothing is collected', async () => {
    const collections: number[] = [];
    const idle = new IdleCollection(() => false, (ms) => collections.push(ms), 20);
    idle.checked();
    idle.stop();
    await rest(100);
    assert.equal(collections.length, 0);
  });
});
