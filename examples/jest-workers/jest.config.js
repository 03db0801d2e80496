/** @type {import('jest').Config} */
module.exports = {
  globalSetup: './global-setup.js', // one mock for the whole run
  globalTeardown: './global-teardown.js',
};
