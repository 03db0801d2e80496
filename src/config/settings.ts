import type { LogLevel } from '../util/logger.js';
import {
  BROKEN_EXAMPLES,
  PET_STATUSES,
  RESOURCE_MODES,
  type ResourceMode,
  coverageFormatOfFile,
  type BrokenExamples,
  type PetStatus,
} from './vocabularies.js';
import { defaultContractPath, defaultFixturesPath } from '../util/paths.js';
import { ConfigError } from './config-error.js';
import {
  bytes,
  guardedList,
  guardedText,
  integer,
  oneOf,
  optionalInteger,
  optionalText,
  origins,
  switchSetting,
  stateUrl,
  text,
  url,
  type Setting,
} from './setting-kinds.js';

const LOG_LEVELS = [
  'trace',
  'debug',
  'info',
  'warn',
  'error',
  'fatal',
  'silent',
] as const satisfies readonly LogLevel[];

/** Timeouts shorter than this would refuse ordinary clients; longer than an hour protect nothing. */
const timeout = { min: 100, max: 3_600_000, value: '<ms>' } as const;

const MIB = 1024 * 1024;

/**
 * Every setting of the mock, the one place each is named, typed, bounded, defaulted and described.
 * The key is the library's option (`startMockServer({ maxPets })`) and the Config's field; the flag
 * is its kebab-case (`--max-pets`) and the variable `MOCK_` and its snake case (`MOCK_MAX_PETS`)
 * unless the entry names another. --help, docs/options.md and the library's typings come from it.
 */
export const SETTINGS = {
  port: integer({
    env: 'PORT',
    default: 4010,
    min: 0,
    max: 65535,
    help: 'TCP port (0: any free port)',
  }),
  host: text({ env: 'HOST', default: '127.0.0.1', value: '<host>', help: 'address to listen on' }),
  contract: text({
    default: defaultContractPath,
    shown: 'openapi.yaml (packaged)',
    value: '<file.yaml>',
    help: 'the OpenAPI 3.0 or 3.1 contract to serve: your own copy of the Pet Store contract',
  }),
  watch: switchSetting({
    help: 'apply edits of the contract, the scenarios and the fixtures while running, keeping the state',
  }),
  db: optionalText({
    value: '<file.json>',
    shown: '(in memory)',
    help: 'keep the store in this JSON file, across restarts',
  }),
  stateUrl: stateUrl({
    shown: '(in this process)',
    help: 'keep the state in Redis, shared by every replica on the same prefix (not with --db)',
  }),
  statePrefix: text({
    default: 'petstore-mock:',
    value: '<text>',
    help: 'with --state-url: the prefix of every key this mock uses',
  }),
  stateTimeout: integer({
    default: 2000,
    min: 100,
    max: 60_000,
    value: '<ms>',
    help: 'with --state-url: answer 503 state_unavailable when Redis takes longer than this',
  }),
  sessionTtl: integer({
    default: 3_600_000,
    min: 1000,
    max: 604_800_000,
    value: '<ms>',
    help: 'with --state-url: an X-Mock-Session unused this long is dropped',
  }),
  seed: optionalInteger({
    min: 0,
    max: 2 ** 32 - 1,
    shown: '(fixtures; 1 with --count)',
    help: 'generate the initial pets with faker from this seed',
  }),
  count: optionalInteger({
    min: 0,
    max: 1_000_000,
    shown: '(fixtures; 100 with --seed)',
    help: 'how many pets to generate',
  }),
  itemCount: integer({
    default: 3,
    min: 0,
    max: 1000,
    help: "items seeded per collection of each of the contract's resources (pets aside)",
  }),
  fixtures: text({
    default: defaultFixturesPath,
    shown: 'fixtures/pets.json',
    value: '<file.json>',
    help: 'initial pets: a JSON array of Pet (not with --seed or --count)',
  }),
  apiKeys: guardedList({
    value: '<k1,k2>',
    shown: '(any token)',
    help: 'accept only these bearer tokens',
    empty: 'give at least one, or leave it unset to accept any token',
  }),
  defaultStatus: oneOf<PetStatus | undefined>(PET_STATUSES, {
    default: undefined,
    value: '<status>',
    shown: '(none)',
    help: 'status given to pets created without one',
  }),
  resources: oneOf<ResourceMode>(RESOURCE_MODES, {
    default: 'infer',
    value: '<mode>',
    help: "keep state for the contract's resources as inferred (docs/resources.md), or off: answer every operation from the contract",
  }),
  brokenExamples: oneOf<BrokenExamples>(BROKEN_EXAMPLES, {
    default: 'generate',
    value: '<what>',
    help: 'an example of the contract that breaks its own schema: answer generated data instead, or serve it as written (the breach journaled)',
  }),
  logLevel: oneOf<LogLevel>(LOG_LEVELS, { default: 'info', value: '<level>', help: 'log level' }),
  corsOrigin: origins({
    shown: '(local origins)',
    help: 'origins allowed by CORS: a list, or * for any',
  }),
  scenario: optionalText({
    value: '<name>',
    shown: '(none)',
    help: 'scenario switched on from the start (and after each reset)',
  }),
  scenariosDir: optionalText({
    value: '<dir>',
    shown: '(none)',
    help: 'a folder of your scenario files (*.yaml), read after the built-in ones and ./scenarios (a file of the same name wins)',
  }),
  maxSessions: integer({
    default: 100,
    min: 1,
    max: 100_000,
    help: 'live X-Mock-Session sessions kept; the least recently used is dropped',
  }),
  journalSize: integer({
    default: 1000,
    min: 0,
    max: 100_000,
    help: 'requests kept in each session journal (GET /__admin/requests)',
  }),
  journalBytes: bytes({
    default: 64 * MIB,
    min: 64 * 1024,
    help: 'bytes all journals may keep together; each session keeps at most its share (/ max-sessions + 1)',
  }),
  maxPets: integer({
    default: 100_000,
    min: 0,
    max: 10_000_000,
    help: 'pets one session may add until its reset; more answer 507 store_full',
  }),
  maxStoreBytes: bytes({
    default: 256 * MIB,
    min: MIB,
    help: 'bytes the added pets of all sessions may take; more answer 507 store_full',
  }),
  adminToken: guardedText({
    value: '<token>',
    shown: '(admin open)',
    help: 'bearer token every /__admin call must carry',
    empty: 'give a token, or leave it unset for an open admin API',
  }),
  noAdmin: switchSetting({ help: 'no /__admin API at all, and no QA console' }),
  coverageReport: optionalText({
    value: '<file>',
    shown: '(none)',
    help: 'write the coverage report here at shutdown: .json, .md or .xml (JUnit)',
    check: (path, label) => {
      if (coverageFormatOfFile(path) === undefined) {
        throw new ConfigError(
          `${label}: expected a file ending in .json, .md or .xml, got "${path}"`,
        );
      }
    },
  }),
  proxyTarget: url({
    value: '<url>',
    shown: '(no proxy)',
    help: 'forward valid requests to the real service at this base address (…/v1) and check its answers',
  }),
  proxyStrict: switchSetting({
    help: 'with --proxy-target: answer 502 contract_violation for an answer that breaks the contract',
  }),
  proxyTimeout: integer({
    default: 10_000,
    min: 1,
    max: 600_000,
    value: '<ms>',
    help: 'with --proxy-target: 502 upstream_unreachable after this long',
  }),
  proxyInsecure: switchSetting({
    help: "with --proxy-target: do not verify the real service's TLS certificate",
  }),
  record: optionalText({
    value: '<file.json>',
    shown: '(none)',
    help: 'with --proxy-target: keep the pets of valid answers as fixtures',
  }),
  maxConnections: integer({
    default: 1000,
    min: 1,
    max: 1_000_000,
    help: 'open connections at once; more are closed as they arrive',
  }),
  maxQueuedBytes: integer({
    default: MIB,
    min: 1024,
    max: 2 ** 30,
    value: '<bytes>',
    help: 'answer bytes a connection may leave untaken before its next requests wait',
  }),
  maxQueuedTotal: integer({
    default: 64 * MIB,
    min: MIB,
    max: 2 ** 40,
    value: '<bytes>',
    help: 'answer bytes all connections may leave untaken before any next request waits',
  }),
  maxPipelined: integer({
    default: 100,
    min: 1,
    max: 100_000,
    help: 'requests a connection may send ahead of its answers; one more closes it',
  }),
  headersTimeout: integer({
    ...timeout,
    default: 10_000,
    help: 'time to send the request line and headers (then 408)',
  }),
  requestTimeout: integer({
    ...timeout,
    default: 30_000,
    help: 'time to send the whole request, body included (then 408)',
  }),
  keepAliveTimeout: integer({
    ...timeout,
    default: 5_000,
    help: 'an idle keep-alive connection is closed after this',
  }),
  writeTimeout: integer({
    ...timeout,
    default: 30_000,
    help: 'time a client has to take an answer; then its connection is closed',
  }),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;

/** The type of a setting's value, in the Config and as a library option. */
export type ValueOf<S> = S extends Setting<infer T> ? T : never;

/** The mock's settings: built once from defaults, environment and flags (or options); never changed. */
export type Config = { readonly [K in SettingName]: ValueOf<(typeof SETTINGS)[K]> };

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** Looks a setting up by name, typed as the common shape (for code that walks the table). */
export function settingOf(name: SettingName): Setting<unknown> {
  return SETTINGS[name];
}

/** `maxStoreBytes` → `--max-store-bytes`. */
export function flagOf(name: SettingName): string {
  return `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** `maxStoreBytes` → `MOCK_MAX_STORE_BYTES`, unless the setting names its own variable. */
export function envOf(name: SettingName): string {
  return settingOf(name).env ?? `MOCK_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/** The settings that bound connections, as the HTTP server takes them. */
export type ConnectionLimits = Pick<
  Config,
  | 'maxConnections'
  | 'maxQueuedBytes'
  | 'maxQueuedTotal'
  | 'maxPipelined'
  | 'headersTimeout'
  | 'requestTimeout'
  | 'keepAliveTimeout'
  | 'writeTimeout'
>;
