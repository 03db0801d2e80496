/**
 * A reload keeps the items sessions created, as it keeps their pets: a new contract whose item
 * schema refuses them is refused (the last version serves, health names the schema's place), and
 * applied with reset=true. A hints file beside the contract is part of it: editing it reloads.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockServer, type MockServer } from '../../src/index.js';
import { isRecord } from '../../src/util/is-record.js';
import { ownPath } from '../helpers/own-contract.js';
import { makeTmpDir, removeTmpDir } from '../helpers/tmp-dir.js';

let dir = '';
let contract = '';
let mock: MockServer | undefined;

beforeEach(() => {
  dir = makeTmpDir();
  contract = join(dir, 'shop.yaml');
  copyFileSync(ownPath('resources', 'shop.yaml'), contract);
});

afterEach(async () => {
  await mock?.close();
  mock = undefined;
  removeTmpDir(dir);
});

function running(): MockServer {
  if (!mock) throw new Error('no mock');
  return mock;
}

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${running().url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

async function admin(path: string, method = 'GET'): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${running().adminUrl}${path}`, { method });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

function messageOf(body: unknown): string {
  return isRecord(body) ? String(body.message) : '';
}

describe('POST /__admin/reload with a contract of resources', () => {
  it('refuses a contract the stored items no longer satisfy, and applies it with reset=true', async () => {
    mock = await startMockServer({ contract, port: 0, itemCount: 2 });
    expect((await call('POST', '/users', { username: 'zed', role: 'admin' })).status).toBe(201);
    // Admins are no longer a role: the stored zed is refused by the new User schema.
    writeFileSync(
      contract,
      readFileSync(contract, 'utf8').replace(
        '        role: { type: string, enum: [admin, member] }\n        email',
        '        role: { type: string, enum: [member] }\n        email',
      ),
    );
    const refused = await admin('/reload', 'POST');
    expect(refused.status).toBe(422);
    expect(messageOf(refused.body)).toContain('stored item(s) do not satisfy the new contract');
    expect(messageOf(refused.body)).toContain('users zed of the default session');
    expect(messageOf(refused.body)).toContain('reset=true');
    const health = await admin('/health');
    expect(isRecord(health.body) && health.body.reload).toMatchObject({
      status: 'failed',
      file: contract,
    });
    expect((await call('GET', '/users/zed')).status).toBe(200); // the last version serves

    const applied = await admin('/reload?reset=true', 'POST');
    expect(applied.status).toBe(200);
    expect((await call('GET', '/users/zed')).status).toBe(404);
    expect((await call('POST', '/users', { username: 'zed', role: 'admin' })).status).toBe(400);
  });

  it('keeps items a new contract accepts, and reads a hints file beside the contract', async () => {
    mock = await startMockServer({ contract, port: 0, itemCount: 2 });
    expect((await call('POST', '/users', { username: 'amy', role: 'member' })).status).toBe(201);
    writeFileSync(
      join(dir, 'shop.mock-hints.yaml'),
      'operations:\n  getUser:\n    stateless: true\n',
    );
    const reloaded = await admin('/reload', 'POST');
    expect(reloaded).toMatchObject({ status: 200, body: { changed: ['contract'] } });
    const resources = await admin('/resources');
    const stateless = isRecord(resources.body) ? resources.body.stateless : undefined;
    expect(stateless).toEqual(
      expect.arrayContaining([expect.objectContaining({ operation: 'getUser' })]),
    );
    // The list still keeps state: amy stayed.
    const listed = await call('GET', '/users?limit=50');
    expect(JSON.stringify(listed.body)).toContain('"amy"');
  });
});
