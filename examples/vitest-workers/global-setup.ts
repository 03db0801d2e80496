import { startSharedMock } from 'petstore-mock/workers';

export default async function setup() {
  // The workers, started after this, find it through PETSTORE_MOCK_URL.
  const mock = await startSharedMock();
  return () => mock.close(); // the teardown
}
