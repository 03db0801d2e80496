/** petstore-mock as a library: the app factory, and a server to start in-process. */
export { createApp, type AppDeps } from './api/app.js';
export { loadConfig, configFromOptions, ConfigError } from './config/load-config.js';
export type { Config } from './config/settings.js';
export { loadMock, StartError } from './server/load-mock.js';
export { startServer, type RunningServer } from './server/start-server.js';
export {
  startMockServer,
  type MockServer,
  type MockServerOptions,
} from './server/start-mock-server.js';
export type { Pet, NewPet, PetStatus } from './state/pet.js';
export type { Int64 } from './util/int64.js';
export type { JournalEntry } from './state/request-journal.js';
export type {
  CoverageReport,
  OperationCoverage,
  StatusCoverage,
  UnmatchedCoverage,
} from './state/coverage-report.js';
export type { CoverageFormat } from './state/coverage-formats.js';
export type { ReloadOutcome, ReloadStatus } from './api/mock-control.js';
export { ReloadRefusedError } from './server/reloader.js';
export { FileError } from './util/located-file.js';
