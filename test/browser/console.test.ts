/**
 * The QA console (/__admin/ui) in Debian's Chromium, driven by playwright-core: what a tester sees
 * and does, against a real mock started in-process on a free port. `npm run test:browser`.
 * UPDATE_SCREENSHOT=1 also writes docs/qa-console.png (1280×800) for docs/admin-and-console.md.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/index.js';
import type { ResourceModel } from '../../src/contract/resource-model.js';
import { packageRoot } from '../../src/util/paths.js';
import { shippedScenarios } from '../helpers/test-app.js';
import { copyMockFiles } from '../helpers/reload-files.js';
import { loadOwn, ownApp } from '../helpers/own-contract.js';
import { SHOP_MODEL } from '../helpers/shop-model.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PET_AUTH = { Authorization: 'Bearer any-key' };
/** How long a request may take to show in the journal (it polls once a second). */
const JOURNAL_WAIT_MS = 10_000;

/** The shipped scenarios the Pet Store serves (server-error is not one: it documents no 5xx). */
const SHIPPED = [...shippedScenarios.keys()];

let userDataDir: string;
let context: BrowserContext;
let mock: MockServer | undefined;
/** The shop contract's app, listening (openShopConsole). */
let shop: Server | undefined;
let page: Page;
/** Console errors and uncaught exceptions of the page. */
let problems: string[];

beforeAll(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'qa-console-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
});

afterAll(async () => {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
});

afterEach(async () => {
  await page.close();
  await mock?.close();
  mock = undefined;
  if (shop) {
    const server = shop;
    shop = undefined;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A fresh mock and a fresh page on its console. */
async function openConsole(options: MockServerOptions = {}): Promise<MockServer> {
  mock = await startMockServer(options);
  await openPage(mock.adminUrl);
  return mock;
}

/**
 * The shop contract (test/fixtures/own/resources/shop.yaml) served with its resources on a free
 * port, and a fresh page on its console; the origin. The model is handed in, as the engine's
 * tests do: startMockServer does not infer resources yet.
 */
async function openShopConsole(itemCount: number, model: ResourceModel = SHOP_MODEL) {
  const { app } = await ownApp(loadOwn('resources', 'shop.yaml'), { resources: model, itemCount });
  const server = createServer(app);
  shop = server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const origin = `http://127.0.0.1:${String(address.port)}`;
  await openPage(`${origin}/__admin`);
  return origin;
}

/** A fresh page on the console of the admin API at `adminUrl`. */
async function openPage(adminUrl: string): Promise<void> {
  page = await context.newPage();
  problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${adminUrl}/ui`);
}

async function petCall(path: string, headers: Record<string, string> = {}): Promise<Response> {
  if (!mock) throw new Error('no mock');
  return fetch(`${mock.url}${path}`, { headers: { ...PET_AUTH, ...headers } });
}

/** The journal's group of rows (one request) whose path column reads `target`, exactly. */
function journalRow(target: string): Locator {
  const exactly = new RegExp(`^${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return page.locator('tbody.entry').filter({
    has: page.locator('td.path').filter({ hasText: exactly }),
  });
}

describe('the QA console in Chromium', () => {
  it('loads without console errors, with every shipped scenario and its controls', async () => {
    await openConsole();
    for (const name of SHIPPED) {
      await page.getByRole('heading', { name, exact: true, level: 3 }).waitFor();
      await page.getByRole('button', { name: `Activate ${name}`, exact: true }).waitFor();
      await page.getByRole('spinbutton', { name: `Number of requests for ${name}` }).waitFor();
    }
    expect(await page.locator('li.scenario').count()).toBe(SHIPPED.length);
    // Each card names the operations its scenario applies to, in words for all of them.
    const operationsOf = (name: string): Locator =>
      page.locator('li.scenario', { has: page.getByRole('heading', { name, exact: true }) });
    await operationsOf('not-found').getByText('Operations: getPet', { exact: true }).waitFor();
    await operationsOf('slow').getByText('Operations: every operation', { exact: true }).waitFor();
    await page.getByText('No scenario is on.').waitFor();
    await page
      .getByText('The mock found no resources in this contract', { exact: false })
      .waitFor();
    expect(problems).toEqual([]);
  });

  it('"Activate unauthorized" makes the next GET /v1/pets answer 401', async () => {
    await openConsole();
    await page.getByRole('button', { name: 'Activate unauthorized', exact: true }).click();
    await page.getByText('On: unauthorized, until switched off.').waitFor();
    expect((await petCall('/pets')).status).toBe(401);
    await page.getByRole('button', { name: 'Switch off unauthorized' }).click();
    await page.getByText('No scenario is on.').waitFor();
    expect((await petCall('/pets')).status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('"on for next N requests" switches a scenario on for N requests, and shows the count left', async () => {
    await openConsole();
    await page.getByRole('spinbutton', { name: 'Number of requests for not-found' }).fill('2');
    await page
      .getByRole('button', { name: 'Activate not-found for the next N requests', exact: true })
      .click();
    await page.getByText('On: not-found, for 2 more matching requests.').waitFor();
    expect((await petCall('/pets/1')).status).toBe(404);
    await page.getByText('On: not-found, for 1 more matching request.').waitFor();
    expect((await petCall('/pets/1')).status).toBe(404);
    await page.getByText('No scenario is on.').waitFor();
    expect((await petCall('/pets/1')).status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('shows a request sent from outside the page in the journal within 10 s', async () => {
    await openConsole();
    await page.getByText('No requests yet.').waitFor();
    expect((await petCall('/pets?limit=2&status=sold')).status).toBe(200);
    const row = journalRow('/v1/pets?limit=2&status=sold');
    await row.waitFor({ timeout: JOURNAL_WAIT_MS });
    await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3}/),
      'GET',
      '/v1/pets?limit=2&status=sold',
      'listPets',
      '200',
      '—',
    ]);
    expect(problems).toEqual([]);
  });

  it('opens a refused request, by keyboard, to its validation errors and a curl command', async () => {
    const server = await openConsole();
    const { origin } = server;
    expect((await petCall('/pets?limit=0')).status).toBe(400);
    const row = journalRow('/v1/pets?limit=0');
    await row.waitFor({ timeout: JOURNAL_WAIT_MS });
    const opener = row.getByRole('button', { name: /details of GET \/v1\/pets\?limit=0/ });
    expect(await opener.getAttribute('aria-expanded')).toBe('false');
    await opener.focus();
    await page.keyboard.press('Enter');
    expect(await opener.getAttribute('aria-expanded')).toBe('true');
    const [journaled] = await server.requests({ limit: 1 });
    expect(journaled?.validationErrors).toEqual([expect.stringContaining("'limit'")]);
    expect(await row.locator('ul.errors li').allTextContents()).toEqual(
      journaled?.validationErrors,
    );
    expect(await row.locator('pre.curl').textContent()).toBe(
      `curl -sS --globoff -H "Authorization: Bearer $TOKEN" '${origin}/v1/pets?limit=0'`,
    );
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await row.getByRole('button', { name: 'Copy curl command' }).click();
    await page.getByText('curl command copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(
      await row.locator('pre.curl').textContent(),
    );
    await opener.focus();
    await page.keyboard.press('Enter');
    expect(await opener.getAttribute('aria-expanded')).toBe('false');
    expect(await row.locator('pre.curl').isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });

  it('works from the keyboard alone: Tab reaches every control, Enter uses it', async () => {
    await openConsole();
    expect((await petCall('/pets?limit=0')).status).toBe(400);
    const row = journalRow('/v1/pets?limit=0');
    await row.waitFor({ timeout: JOURNAL_WAIT_MS });
    const focusedName =
      '(() => { const e = document.activeElement; return e ? (e.getAttribute("aria-label") || e.id || e.textContent || "").trim() : ""; })()';
    const reached: string[] = [];
    for (let i = 0; i < 80 && !reached.at(-1)?.includes('details of GET'); i += 1) {
      await page.keyboard.press('Tab');
      const name = String(await page.evaluate(focusedName));
      reached.push(name);
      if (name === 'Activate not-found') {
        await page.keyboard.press('Enter');
        await page.getByText('On: not-found, until switched off.').waitFor();
      }
    }
    expect(reached).toEqual(
      expect.arrayContaining([
        'session',
        'reset',
        ...SHIPPED.flatMap((name) => [
          `Activate ${name}`,
          `Number of requests for ${name}`,
          `Activate ${name} for the next N requests`,
        ]),
      ]),
    );
    // The poll never took the focus away: Tab went on from where Enter was pressed.
    expect(reached.indexOf('Activate not-found') + 1).toBe(
      reached.indexOf('Number of requests for not-found'),
    );
    await page.keyboard.press('Enter');
    await row.locator('pre.curl').waitFor();
    expect((await petCall('/pets/1')).status).toBe(404);
    expect(problems).toEqual([]);
  });

  it('resets the session only after confirmation', async () => {
    const { origin } = await openConsole();
    const resets: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url() === `${origin}/__admin/reset`)
        resets.push(req.url());
    });
    expect((await petCall('/pets')).status).toBe(200);
    const row = journalRow('/v1/pets');
    await row.waitFor({ timeout: JOURNAL_WAIT_MS });
    await page.getByRole('button', { name: 'Reset session…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset this session?' });
    await dialog.waitFor();
    // The safe choice has the focus; Escape cancels like the Cancel button.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Reset session…' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // A request after the cancels shows once the journal was read again since: the first one is
    // still there beside it, no reset was sent, and the mock's journal has both.
    expect((await petCall('/pets?limit=1')).status).toBe(200);
    await journalRow('/v1/pets?limit=1').waitFor({ timeout: JOURNAL_WAIT_MS });
    expect(await row.count()).toBe(1);
    expect(resets).toEqual([]);
    expect((await mock?.requests())?.map((entry) => entry.query)).toEqual(['limit=1', '']);
    await page.getByRole('button', { name: 'Reset session…' }).click();
    await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByText('Session default reset.').waitFor();
    await page.getByText('No requests yet.').waitFor();
    expect(await row.count()).toBe(0);
    expect(resets).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('scopes every view and control to the session chosen', async () => {
    const { origin } = await openConsole();
    expect((await petCall('/pets?limit=1', { 'X-Mock-Session': 'worker-7' })).status).toBe(200);
    const select = page.getByRole('combobox', { name: 'Session' });
    await select.locator('option', { hasText: 'worker-7' }).waitFor({
      state: 'attached',
      timeout: JOURNAL_WAIT_MS,
    });
    expect(await journalRow('/v1/pets?limit=1').count()).toBe(0);
    await select.selectOption('worker-7');
    const row = journalRow('/v1/pets?limit=1');
    await row.waitFor({ timeout: JOURNAL_WAIT_MS });
    await row.getByRole('button').click();
    expect(await row.locator('pre.curl').textContent()).toBe(
      `curl -sS --globoff -H "Authorization: Bearer $TOKEN" -H 'X-Mock-Session: worker-7' '${origin}/v1/pets?limit=1'`,
    );
    await page.getByRole('button', { name: 'Activate empty-catalogue', exact: true }).click();
    await page.getByText('On: empty-catalogue, until switched off.').waitFor();
    await expect(
      (await petCall('/pets', { 'X-Mock-Session': 'worker-7' })).json(),
    ).resolves.toEqual([]);
    expect(((await (await petCall('/pets')).json()) as unknown[]).length).toBeGreaterThan(0);
    await page.getByText(/for session worker-7\.$/).waitFor();
    expect(problems).toEqual([]);
  });

  it('asks for the admin token, keeps it in sessionStorage only and sends it as a bearer token', async () => {
    const urls: string[] = [];
    const adminAuth: (string | undefined)[] = [];
    const server = await openConsole({ adminToken: 's3cret' });
    page.on('request', (request) => {
      urls.push(request.url());
      if (request.url().startsWith(`${server.adminUrl}/`) && !request.url().includes('/ui')) {
        adminAuth.push(request.headers().authorization);
      }
    });
    const prompt = page.getByRole('heading', { name: 'Admin token needed' });
    await prompt.waitFor();
    const field = page.getByLabel('Admin token', { exact: true });
    expect(await field.evaluate('document.activeElement.id')).toBe('token');
    await field.fill('wrong');
    await field.press('Enter');
    await page.getByText('That admin token was refused.').waitFor();
    await field.fill('s3cret');
    await field.press('Enter');
    await page.getByRole('heading', { name: 'unauthorized', level: 3 }).waitFor();
    await prompt.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Activate slow', exact: true }).click();
    await page.getByText('On: slow, until switched off.').waitFor();
    expect(await page.evaluate('JSON.stringify(Object.entries(sessionStorage))')).toBe(
      JSON.stringify([['petstore-mock.admin-token', 's3cret']]),
    );
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(await context.cookies()).toEqual([]);
    expect(urls.filter((url) => url.includes('s3cret'))).toEqual([]);
    expect(adminAuth).toContain('Bearer s3cret');
    expect(adminAuth.every((header) => header === undefined || header.startsWith('Bearer '))).toBe(
      true,
    );
    // The only errors: Chromium's own lines for the 401 answers that asked for the token.
    expect(problems.filter((text) => !text.includes('status of 401'))).toEqual([]);
  });

  it('shows a failed reload as an alert naming file:line:column until a good edit applies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-console-reload-'));
    try {
      const files = copyMockFiles(dir);
      const started = await openConsole(files);
      await page.getByText('No scenario is on.').waitFor();
      const alert = page.getByRole('alert');
      expect(await alert.count()).toBe(0);

      const original = readFileSync(files.contract, 'utf8');
      const broken = original.replace(
        "$ref: '#/components/schemas/Pets'",
        "$ref: '#/components/schemas/Nope'",
      );
      const lines = broken.split('\n');
      const line = lines.findIndex((text) => text.includes('schemas/Nope'));
      const column = (lines[line] ?? '').indexOf("'#/components") + 1;
      writeFileSync(files.contract, broken);
      await expect(started.reload()).rejects.toThrow(/not applied/);
      await alert
        .getByText(`${files.contract}:${String(line + 1)}:${String(column)}`, { exact: true })
        .waitFor();
      expect(await alert.textContent()).toContain(
        '$ref #/components/schemas/Nope points at nothing in the document',
      );
      // An alert is read out; it takes no focus from where the tester is.
      expect(await page.evaluate('document.activeElement === document.body')).toBe(true);
      expect((await petCall('/pets')).status).toBe(200); // the last good version serves

      writeFileSync(files.contract, original);
      await started.reload();
      await alert.waitFor({ state: 'hidden' });
      await page.getByText('The edit applied: the mock serves the new version.').waitFor();
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is readable 400 px wide: nothing wider than the screen', async () => {
    await openConsole();
    await page.setViewportSize({ width: 400, height: 800 });
    expect((await petCall('/pets?limit=0')).status).toBe(400);
    const row = journalRow('/v1/pets?limit=0');
    await row.waitFor({ timeout: JOURNAL_WAIT_MS });
    await row.getByRole('button').click();
    await page.getByRole('heading', { name: 'connection-reset', level: 3 }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(400);
    expect(problems).toEqual([]);
  });

  it('takes a 1280×800 screenshot under 300 kB', async () => {
    await openConsole();
    await petCall('/pets?limit=2');
    await fetch(`${mock?.url ?? ''}/pets`, {
      method: 'POST',
      headers: { ...PET_AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    await petCall('/pets?limit=0');
    await petCall('/pets/1', { Prefer: 'code=404' });
    await page.getByRole('spinbutton', { name: 'Number of requests for unauthorized' }).fill('3');
    await page
      .getByRole('button', { name: 'Activate unauthorized for the next N requests', exact: true })
      .click();
    const row = journalRow('/v1/pets?limit=0');
    await row.waitFor({ timeout: JOURNAL_WAIT_MS });
    await row.getByRole('button').click();
    await page.getByText('On: unauthorized, for 3 more matching requests.').waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    const path =
      process.env.UPDATE_SCREENSHOT === '1'
        ? join(packageRoot, 'docs', 'qa-console.png')
        : join(userDataDir, 'qa-console.png');
    await page.screenshot({ path });
    expect(statSync(path).size).toBeLessThan(300_000);
    expect(problems).toEqual([]);
  });
});

describe('the Resources view of the QA console', () => {
  /** The table's rows, each as its header and cells read (a line per block). */
  async function resourceRows(): Promise<string[][]> {
    const rows = page.locator('#resource-rows tr');
    const read: string[][] = [];
    for (let i = 0; i < (await rows.count()); i += 1) {
      read.push(await rows.nth(i).locator('th, td').allInnerTexts());
    }
    return read;
  }

  /** The shown items of the chosen resource, one compact JSON text each. */
  async function shownItems(): Promise<unknown[]> {
    const texts = await page.locator('#resource-items li').allTextContents();
    return texts.map((text): unknown => JSON.parse(text));
  }

  it("lists the resources with their counts, and a session's items apart from the default's", async () => {
    const origin = await openShopConsole(3);
    const showUsers = page.getByRole('button', { name: 'Show items of users', exact: true });
    await showUsers.waitFor();
    expect(await resourceRows()).toEqual([
      [
        'users',
        '/users\n/users/{username}',
        'username (string, given by the client)',
        'list, create, read, replace, update, delete\nFilters: role',
        '3',
      ],
      [
        'users.orders\nin users',
        '/users/{username}/orders\n/users/{username}/orders/{orderId}',
        'id (integer, int64)',
        'list, create, read',
        'per parent',
      ],
      ['articles', '/articles\n/articles/{slug}', 'slug (string)', 'create, read', '3'],
    ]);
    // Only a top-level resource shows its items: a nested one's are per parent.
    expect(await page.getByRole('button', { name: /^Show items of/ }).count()).toBe(2);

    const created = await fetch(`${origin}/api/users`, {
      method: 'POST',
      headers: { ...PET_AUTH, 'Content-Type': 'application/json', 'X-Mock-Session': 'qa-1' },
      body: JSON.stringify({ username: 'quinn', role: 'member' }),
    });
    expect(created.status).toBe(201);

    // The default session: its seeded three, without the one created in qa-1.
    await showUsers.click();
    expect(await showUsers.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('heading', { name: 'Items of users in session default' }).waitFor();
    const seeded = await shownItems();
    expect(seeded).toHaveLength(3);
    expect(seeded).not.toContainEqual(expect.objectContaining({ username: 'quinn' }));
    expect((await resourceRows())[0]?.at(-1)).toBe('3');

    // Session qa-1: four, the created one among them.
    const select = page.getByRole('combobox', { name: 'Session' });
    await select.locator('option', { hasText: 'qa-1' }).waitFor({
      state: 'attached',
      timeout: JOURNAL_WAIT_MS,
    });
    await select.selectOption('qa-1');
    await page.getByRole('heading', { name: 'Items of users in session qa-1' }).waitFor();
    const inSession = await shownItems();
    expect(inSession).toHaveLength(4);
    expect(inSession).toContainEqual(
      expect.objectContaining({ username: 'quinn', role: 'member' }),
    );
    expect((await resourceRows())[0]?.at(-1)).toBe('4');

    // Pressed again, the items are hidden.
    await showUsers.click();
    expect(await showUsers.getAttribute('aria-pressed')).toBe('false');
    await page.locator('#resource-items').waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  });

  it('shows a bounded number of items with a note of the rest, and the stateless operations', async () => {
    const model: ResourceModel = {
      resources: SHOP_MODEL.resources.filter((resource) => resource.name !== 'articles'),
      stateless: [
        { operation: 'createArticle', reason: "left out of this test's model" },
        { operation: 'getArticle', reason: "left out of this test's model" },
      ],
    };
    await openShopConsole(23, model);
    await page.getByRole('button', { name: 'Show items of users', exact: true }).click();
    await page.getByRole('heading', { name: 'Items of users in session default' }).waitFor();
    expect(await shownItems()).toHaveLength(20);
    await page
      .getByText('3 more not shown: GET /__admin/resources/users/items lists them all.')
      .waitFor();

    const stateless = page.getByText('2 operations answered from the contract, not kept');
    const reasons = page.locator('#stateless-list');
    expect(await reasons.isVisible()).toBe(false);
    await stateless.click();
    expect(await page.locator('#stateless-list li').allTextContents()).toEqual([
      "createArticle: left out of this test's model",
      "getArticle: left out of this test's model",
    ]);
    expect(await reasons.isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });
});
