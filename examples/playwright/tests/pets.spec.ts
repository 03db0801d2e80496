import { expect, test } from 'petstore-mock/playwright';

// `mock` is this worker's session on the shared mock, reset before each test; the page's requests
// to the mock carry it, so parallel workers never see each other's pets or scenarios.

test('lists the pets', async ({ page, mock }) => {
  await page.goto(`/?api=${encodeURIComponent(mock.url)}`);
  await expect(page.getByRole('listitem')).toHaveCount(30);
});

test('adds a pet', async ({ page, mock }) => {
  await page.goto(`/?api=${encodeURIComponent(mock.url)}`);
  await expect(page.getByRole('listitem')).toHaveCount(30);
  await page.getByLabel('Name').fill('Rex');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('listitem')).toHaveCount(31);
  await expect(page.getByRole('listitem').last()).toHaveText('Rex');
  const [, created] = await mock.requests({ limit: 2 }); // newest first
  expect(created).toMatchObject({ operationId: 'createPet', status: 201 });
});

test('shows an empty catalogue', async ({ page, mock }) => {
  await mock.useScenario('empty-catalogue', { times: 1 });
  await page.goto(`/?api=${encodeURIComponent(mock.url)}`);
  await expect(page.getByText('No pets')).toBeVisible();
});
