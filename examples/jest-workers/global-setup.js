const { startSharedMock } = require('petstore-mock/workers');

module.exports = async () => {
  // The workers, started after this, find it through PETSTORE_MOCK_URL.
  globalThis.petstoreMock = await startSharedMock();
};
