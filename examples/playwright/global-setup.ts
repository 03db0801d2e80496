import { startSharedMock } from 'petstore-mock/workers';

export default async function globalSetup() {
  const mock = await startSharedMock(); // workers find it through PETSTORE_MOCK_URL
  return () => mock.close(); // the teardown
}
