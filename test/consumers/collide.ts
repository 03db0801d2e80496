/**
 * Two test files that collide on a shared mock unless each worker has its own session: each one
 * resets, creates its own pet, waits until the other has created its pet too (a barrier on files,
 * so both surely run at once, in two workers), then lists. Sharing the default session, one
 * worker's reset wipes the other's pet or both see two new pets, so at least one of them fails with
 * "collision:"; with petstore-mock/workers each sees the 30 fixtures and its own pet only.
 *
 * COLLIDE_HELPER=1 selects the helper; COLLIDE_DIR is the barrier's folder, new for every run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The barrier and the check, as plain JavaScript (CommonJS), for any runner's test file. */
const CORE = `
const { existsSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { connectMock } = require('petstore-mock/workers');

const WORKERS = ['a', 'b'];

/** The mock as this worker sees it: its own session, or the default one every worker shares. */
function workerMock() {
  if (process.env.COLLIDE_HELPER === '1') return connectMock();
  return {
    url: process.env.PETSTORE_MOCK_URL,
    session: '(default)',
    headers: {},
    reset: async () => {
      await fetch(process.env.PETSTORE_MOCK_ADMIN_URL + '/reset', { method: 'POST' });
    },
  };
}

/** Waits until every worker got here; throws after 60 s (then they did not run at once). */
async function barrier(me) {
  const dir = process.env.COLLIDE_DIR;
  writeFileSync(join(dir, me), '');
  const deadline = Date.now() + 60000;
  while (!WORKERS.every((name) => existsSync(join(dir, name)))) {
    if (Date.now() > deadline) throw new Error('barrier: the other worker never came');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Throws "collision: ..." unless the list holds the 30 fixtures and this worker's pet only. */
function check(me, session, names) {
  const created = names.filter((name) => name.startsWith('Worker-'));
  const seen = JSON.stringify({ worker: me, session, created, count: names.length });
  if (created.length !== 1 || created[0] !== 'Worker-' + me || names.length !== 31) {
    throw new Error('collision: ' + seen);
  }
  console.log('isolated: ' + seen);
}

/** The whole exchange over fetch, as a jest or vitest worker makes it. */
async function collide(me) {
  const mock = workerMock();
  const headers = { Authorization: 'Bearer t', ...mock.headers };
  await mock.reset();
  const res = await fetch(mock.url + '/pets', {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Worker-' + me, categoryId: 1 }),
  });
  if (res.status !== 201) throw new Error('create answered ' + res.status);
  await barrier(me);
  const pets = await (await fetch(mock.url + '/pets?limit=100', { headers })).json();
  check(me, mock.session, pets.map((pet) => pet.name));
}

module.exports = { barrier, check, collide };
`;

/**
 * Each test's own time limit: above the barrier's 60 s, since on a loaded machine one worker can
 * start seconds after the other (the runners' 5 s default failed CI that way).
 */
const TEST_LIMIT_MS = 90_000;

/** The files of a collision run: name -> content. */
export type Files = Record<string, string>;

/** jest (CommonJS): collide-core.cjs and two test files. */
export function jestCollideFiles(): Files {
  const test = (me: string): string =>
    `const { collide } = require('./collide-core.cjs');\n\ntest('worker ${me}', () => collide('${me}'), ${TEST_LIMIT_MS});\n`;
  return {
    'collide-core.cjs': CORE,
    'collide-a.test.js': test('a'),
    'collide-b.test.js': test('b'),
  };
}

/** vitest: the same core, required (Node's own require) from an ES module test file. */
export function vitestCollideFiles(): Files {
  const test = (me: string): string =>
    [
      "import { createRequire } from 'node:module';",
      "import { test } from 'vitest';",
      '',
      "const { collide } = createRequire(import.meta.url)('./collide-core.cjs');",
      '',
      `test('worker ${me}', () => collide('${me}'), ${TEST_LIMIT_MS});`,
      '',
    ].join('\n');
  return {
    'collide-core.cjs': CORE,
    'collide-a.test.ts': test('a'),
    'collide-b.test.ts': test('b'),
  };
}

/**
 * Playwright: the page makes the requests. With the helper the spec takes `test` from
 * petstore-mock/playwright (its fixture resets the worker's session and adds its header to the
 * page's requests); without it, plain @playwright/test and a reset of the shared default session.
 */
export function playwrightCollideFiles(helper: boolean): Files {
  const test = (me: string): string =>
    [
      helper
        ? "import { test } from 'petstore-mock/playwright';"
        : "import { test } from '@playwright/test';",
      "import { barrier, check } from './collide-core.cjs';",
      '',
      `test('worker ${me}', async ({ page }) => {`,
      `  test.setTimeout(${TEST_LIMIT_MS});`,
      "  const api = process.env.PETSTORE_MOCK_URL ?? '';",
      helper
        ? ''
        : "  await fetch(`${process.env.PETSTORE_MOCK_ADMIN_URL ?? ''}/reset`, { method: 'POST' });",
      '  await page.goto(`/?api=${encodeURIComponent(api)}`);',
      `  await page.getByLabel('Name').fill('Worker-${me}');`,
      '  const created = page.waitForResponse((res) => res.request().method() === "POST");',
      "  await page.getByRole('button', { name: 'Add' }).click();",
      '  if ((await created).status() !== 201) throw new Error("create failed");',
      `  await barrier('${me}');`,
      '  await page.goto(`/?api=${encodeURIComponent(api)}`);',
      "  await page.getByRole('listitem').first().waitFor();",
      `  check('${me}', '${helper ? 'fixture' : '(default)'}', await page.getByRole('listitem').allTextContents());`,
      '});',
      '',
    ].join('\n');
  return {
    'tests/collide-core.cjs': CORE,
    'tests/collide-a.spec.ts': test('a'),
    'tests/collide-b.spec.ts': test('b'),
  };
}

/** The environment of one collision run: a new barrier folder, the helper on or off. */
export function collideEnv(helper: boolean): NodeJS.ProcessEnv {
  return {
    COLLIDE_HELPER: helper ? '1' : '0',
    COLLIDE_DIR: mkdtempSync(join(tmpdir(), 'petstore-collide-')),
  };
}
