import { PET_STATUSES } from './pets/pet.js';

/** How one option is documented (in --help and the README's table). */
export interface OptionDoc {
  readonly env: string;
  readonly value: string;
  readonly fallback: string;
  readonly description: string;
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
  'admin-token': {
    env: 'MOCK_ADMIN_TOKEN',
    value: '<token>',
    fallback: '(admin open)',
    description: 'bearer token every /__admin call must carry',
  },
} as const satisfies Record<string, OptionDoc>;

export type OptionName = keyof typeof OPTIONS;

export const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** The --help text, generated from the options table. */
export function helpText(): string {
  const rows = Object.entries(OPTIONS).map(([name, doc]: [string, OptionDoc]) => {
    const flag = `--${name} ${doc.value}`.padEnd(30);
    return `  ${flag}${doc.description}\n  ${''.padEnd(30)}env ${doc.env}, default ${doc.fallback}`;
  });
  return [
    'petstore-mock: a contract-faithful mock of the Pet Store API (openapi.yaml)',
    '',
    'Usage: petstore-mock [options]',
    '',
    ...rows,
    `  ${'--no-admin'.padEnd(30)}no /__admin API at all (env MOCK_NO_ADMIN=1)`,
    `  ${'--help, -h'.padEnd(30)}print this help`,
    `  ${'--version, -v'.padEnd(30)}print the version`,
    '',
    'Flags win over environment variables. The API is served under /v1.',
  ].join('\n');
}
