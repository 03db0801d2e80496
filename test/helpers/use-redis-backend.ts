// The redis project's setup file: the shared tests of this file run on Redis (state-backend.ts).
// jest gives each test file its own copy of process.env, so the memory project never sees it.
process.env.PETSTORE_TEST_STATE = 'redis';
