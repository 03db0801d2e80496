import { DEFAULT_CONNECTION_LIMITS as LIMITS } from './connection-limits.js';
import { DEFAULT_JOURNAL_BYTES } from '../state/request-journal.js';
import { PET_STATUSES } from '../state/pet.js';
import { DEFAULT_STORE_LIMITS } from '../state/store-budget.js';

/** How one option is documented (in --help and the README's table). */
export interface OptionDoc {
  readonly env: string;
  /** The value the flag takes, e.g. `<n>`; empty for a switch, given alone (`--proxy-strict`). */
  readonly value: string;
  readonly fallback: string;
  readonly description: string;
  /** A switch: on with the flag alone, or with its variable set to 1 or true. */
  readonly switch?: true;
}

/** Every option: its flag (the key), its environment variable, and its documentation. */
export const OPTIONS = {
  port: { env: 'PORT', value: '<n>', fallback: '4010', description: 'TCP port (0: any free port)' },
  host: {
    env: 'HOST',
    value: '<host>',
    fallback: '127.0.0.1',
    description: 'address to listen on',
  },
  db: {
    env: 'MOCK_DB',
    value: '<file.json>',
    fallback: '(in memory)',
    description: 'keep the store in this JSON file, across restarts',
  },
  seed: {
    env: 'MOCK_SEED',
    value: '<n>',
    fallback: '(fixtures)',
    description: 'generate the initial pets with faker from this seed',
  },
  count: {
    env: 'MOCK_COUNT',
    value: '<n>',
    fallback: '100 with --seed',
    description: 'how many pets to generate (0 to 1000000)',
  },
  fixtures: {
    env: 'MOCK_FIXTURES',
    value: '<file.json>',
    fallback: 'fixtures/pets.json',
    description: 'initial pets: a JSON array of Pet',
  },
  'api-keys': {
    env: 'MOCK_API_KEYS',
    value: '<k1,k2>',
    fallback: '(any token)',
    description: 'accept only these bearer tokens',
  },
  'default-status': {
    env: 'MOCK_DEFAULT_STATUS',
    value: '<status>',
    fallback: '(none)',
    description: `status given to pets created without one: ${PET_STATUSES.join(', ')}`,
  },
  'log-level': {
    env: 'MOCK_LOG_LEVEL',
    value: '<level>',
    fallback: 'info',
    description: 'trace, debug, info, warn, error, fatal or silent',
  },
  'cors-origin': {
    env: 'MOCK_CORS_ORIGIN',
    value: '<o1,o2|*>',
    fallback: '(local origins)',
    description: 'origins allowed by CORS',
  },
  scenario: {
    env: 'MOCK_SCENARIO',
    value: '<name>',
    fallback: '(none)',
    description: 'scenario switched on from the start (and after each reset)',
  },
  'scenarios-dir': {
    env: 'MOCK_SCENARIOS_DIR',
    value: '<dir>',
    fallback: 'scenarios/',
    description: 'folder of scenario files (*.yaml)',
  },
  'max-sessions': {
    env: 'MOCK_MAX_SESSIONS',
    value: '<n>',
    fallback: '100',
    description: 'live X-Mock-Session sessions kept; least recently used dropped',
  },
  'journal-size': {
    env: 'MOCK_JOURNAL_SIZE',
    value: '<n>',
    fallback: '1000',
    description: 'requests kept in each session journal (GET /__admin/requests)',
  },
  'journal-bytes': {
    env: 'MOCK_JOURNAL_BYTES',
    value: '<bytes>',
    fallback: String(DEFAULT_JOURNAL_BYTES),
    description:
      'bytes all journals may keep together; each session keeps at most its share (/ max-sessions + 1)',
  },
  'max-pets': {
    env: 'MOCK_MAX_PETS',
    value: '<n>',
    fallback: String(DEFAULT_STORE_LIMITS.maxPets),
    description: 'pets one session may add until its reset; more answer 507 store_full',
  },
  'max-store-bytes': {
    env: 'MOCK_MAX_STORE_BYTES',
    value: '<bytes>',
    fallback: String(DEFAULT_STORE_LIMITS.maxBytes),
    description: 'bytes the added pets of all sessions may take; more answer 507 store_full',
  },
  'admin-token': {
    env: 'MOCK_ADMIN_TOKEN',
    value: '<token>',
    fallback: '(admin open)',
    description: 'bearer token every /__admin call must carry',
  },
  'coverage-report': {
    env: 'MOCK_COVERAGE_REPORT',
    value: '<file>',
    fallback: '(none)',
    description: 'write the coverage report here at shutdown: .json, .md or .xml (JUnit)',
  },
  'proxy-target': {
    env: 'MOCK_PROXY_TARGET',
    value: '<url>',
    fallback: '(no proxy)',
    description:
      'forward valid requests to the real service at this base address (…/v1) and check its answers',
  },
  'proxy-strict': {
    env: 'MOCK_PROXY_STRICT',
    value: '',
    fallback: '(off)',
    description:
      'with --proxy-target: answer 502 contract_violation for an answer that breaks the contract',
    switch: true,
  },
  'proxy-timeout': {
    env: 'MOCK_PROXY_TIMEOUT',
    value: '<ms>',
    fallback: '10000',
    description: 'with --proxy-target: 502 upstream_unreachable after this long',
  },
  'proxy-insecure': {
    env: 'MOCK_PROXY_INSECURE',
    value: '',
    fallback: '(verified)',
    description: "with --proxy-target: do not verify the real service's TLS certificate",
    switch: true,
  },
  record: {
    env: 'MOCK_RECORD',
    value: '<file.json>',
    fallback: '(none)',
    description: 'with --proxy-target: keep the pets of valid answers as fixtures',
  },
  'max-connections': {
    env: 'MOCK_MAX_CONNECTIONS',
    value: '<n>',
    fallback: String(LIMITS.maxConnections),
    description: 'open connections at once; more are closed as they arrive',
  },
  'max-queued-bytes': {
    env: 'MOCK_MAX_QUEUED_BYTES',
    value: '<bytes>',
    fallback: String(LIMITS.maxQueuedBytes),
    description: 'answer bytes a connection may leave untaken before its next requests wait',
  },
  'max-queued-total': {
    env: 'MOCK_MAX_QUEUED_TOTAL',
    value: '<bytes>',
    fallback: String(LIMITS.maxQueuedTotal),
    description:
      'answer bytes all connections may leave untaken; over it the longest holders are closed',
  },
  'max-pipelined': {
    env: 'MOCK_MAX_PIPELINED',
    value: '<n>',
    fallback: String(LIMITS.maxPipelined),
    description: 'requests a connection may send ahead of its answers; more close it',
  },
  'headers-timeout': {
    env: 'MOCK_HEADERS_TIMEOUT',
    value: '<ms>',
    fallback: String(LIMITS.headersTimeoutMs),
    description: 'time to send the request line and headers (then 408)',
  },
  'request-timeout': {
    env: 'MOCK_REQUEST_TIMEOUT',
    value: '<ms>',
    fallback: String(LIMITS.requestTimeoutMs),
    description: 'time to send the whole request, body included (then 408)',
  },
  'keep-alive-timeout': {
    env: 'MOCK_KEEP_ALIVE_TIMEOUT',
    value: '<ms>',
    fallback: String(LIMITS.keepAliveTimeoutMs),
    description: 'an idle keep-alive connection is closed after this',
  },
  'write-timeout': {
    env: 'MOCK_WRITE_TIMEOUT',
    value: '<ms>',
    fallback: String(LIMITS.writeTimeoutMs),
    description: 'time a client has to take an answer; then its connection is closed',
  },
} as const satisfies Record<string, OptionDoc>;

export type OptionName = keyof typeof OPTIONS;

export const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** The --help text, generated from the options table. */
export function helpText(): string {
  const rows = Object.entries(OPTIONS).map(([name, doc]: [string, OptionDoc]) => {
    const flag = `--${name} ${doc.value}`.trimEnd().padEnd(30);
    return `  ${flag}${doc.description}\n  ${''.padEnd(30)}env ${doc.env}, default ${doc.fallback}`;
  });
  return [
    'petstore-mock: a contract-faithful mock of the Pet Store API (openapi.yaml)',
    '',
    'Usage: petstore-mock [options]',
    '       petstore-mock coverage --url <mock> [options]   (see petstore-mock coverage --help)',
    '',
    ...rows,
    `  ${'--no-admin'.padEnd(30)}no /__admin API at all (env MOCK_NO_ADMIN=1)`,
    `  ${'--help, -h'.padEnd(30)}print this help`,
    `  ${'--version, -v'.padEnd(30)}print the version`,
    '',
    'Flags win over environment variables. The API is served under /v1.',
  ].join('\n');
}
