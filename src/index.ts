/** petstore-mock as a library: the app factory, and a server to start in-process. */
export { createApp, type AppDeps } from './app.js';
export { loadConfig, ConfigError, type Config } from './config.js';
export { loadMock, StartError } from './load-mock.js';
export { startServer, type RunningServer } from './server.js';
export { startMockServer, type MockServer, type MockServerOptions } from './start-mock-server.js';
export type { Pet, NewPet, PetStatus } from './store/pet.js';
export type { Int64 } from './json/int64.js';
export type { JournalEntry } from './sessions/journal.js';
export type {
  CoverageReport,
  OperationCoverage,
  StatusCoverage,
  UnmatchedCoverage,
} from './coverage/coverage-report.js';
export type { CoverageFormat } from './coverage/coverage-formats.js';
