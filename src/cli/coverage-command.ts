import { parseArgs } from 'node:util';
import {
  COVERAGE_FORMATS,
  formatCoverage,
  isCoverageFormat,
  percentText,
  violationsText,
  type CoverageFormat,
} from '../state/coverage-formats.js';
import { exactPercent, type CoverageReport } from '../state/coverage-report.js';
import { readCoverageReport } from './read-coverage-report.js';
import { errorMessage } from '../util/error-message.js';
import { isRecord } from '../util/is-record.js';

/** How `petstore-mock coverage` ends: pipelines tell a gate from a broken setup by the code. */
export const COVERAGE_EXIT = {
  /** The report was printed, and every gate given passed. */
  passed: 0,
  /** Under --fail-under, a --require pair never answered, or answers that broke the contract. */
  failed: 1,
  /** Bad arguments, or no report to read (mock unreachable, refused, not a mock). */
  unusable: 2,
} as const;

/** A command line that cannot run, or a mock that gives no report: exit 2. */
class UnusableError extends Error {
  override name = 'UnusableError';
}

/** One operation × status that must have been answered (`--require listPets:401`). */
interface RequiredPair {
  readonly operationId: string;
  readonly status: string;
}

interface CoverageCommand {
  /** The mock's base address, where /__admin is served, without a trailing slash. */
  readonly url: string;
  readonly adminToken: string | undefined;
  readonly session: string | undefined;
  readonly format: CoverageFormat;
  readonly failUnder: number | undefined;
  readonly required: readonly RequiredPair[];
  /** Pass a report whose answers broke the contract (proxy mode against a drifted service). */
  readonly allowViolations: boolean;
}

/** Where the output goes (stdout and stderr for the CLI). */
export interface CommandOutput {
  out(text: string): void;
  err(line: string): void;
}

/** How long the mock gets to answer before it counts as unreachable. */
const TIMEOUT_MS = 10_000;

export const COVERAGE_HELP = [
  "petstore-mock coverage: print a running mock's contract coverage, and gate a pipeline on it",
  '',
  'Usage: petstore-mock coverage --url <mock> [options]',
  '',
  '  --url <url>                   the mock, where /__admin is served: http://127.0.0.1:4010',
  '  --admin-token <token>         its admin token (env MOCK_ADMIN_TOKEN)',
  '  --session <id>                one X-Mock-Session only (default: the whole suite)',
  `  --format <format>             ${COVERAGE_FORMATS.join(', ')} (default text)`,
  '  --fail-under <percent>        exit 1 when fewer documented answers were covered',
  '  --require <op:status,...>     exit 1 unless each was answered, e.g. listPets:401,getPet:404',
  '  --allow-violations            pass answers that broke the contract (else they exit 1)',
  '  --help, -h                    print this help',
  '',
  'Exit codes: 0 printed (and passed), 1 a gate failed, 2 bad arguments or no report to read.',
].join('\n');

function readUrl(value: string | undefined): string {
  if (value === undefined) throw new UnusableError('--url is required (see --help)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UnusableError(`--url: "${value}" is not a URL like http://127.0.0.1:4010`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnusableError(`--url: expected an http or https URL, got "${value}"`);
  }
  return url.href.replace(/\/+$/, '');
}

function readPercent(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const percent = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(percent >= 0 && percent <= 100)) {
    throw new UnusableError(`--fail-under: expected a percentage from 0 to 100, got "${value}"`);
  }
  return percent;
}

function readRequired(values: readonly string[]): RequiredPair[] {
  return values
    .flatMap((value) => value.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const found = /^([^:\s]+):([1-5]\d\d)$/.exec(item);
      if (!found?.[1] || !found[2]) {
        throw new UnusableError(`--require: expected operationId:status, got "${item}"`);
      }
      return { operationId: found[1], status: found[2] };
    });
}

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        'admin-token': { type: 'string' },
        session: { type: 'string' },
        format: { type: 'string' },
        'fail-under': { type: 'string' },
        require: { type: 'string', multiple: true },
        'allow-violations': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UnusableError(`${errorMessage(error).split('\n')[0] ?? ''} (see --help)`);
  }
}

function readCommand(argv: readonly string[], env: NodeJS.ProcessEnv): CoverageCommand | 'help' {
  const values = parseFlags(argv);
  if (values.help === true) return 'help';
  const format = values.format ?? 'text';
  if (!isCoverageFormat(format)) {
    throw new UnusableError(`--format: expected one of ${COVERAGE_FORMATS.join(', ')}`);
  }
  const fromEnv = env.MOCK_ADMIN_TOKEN === '' ? undefined : env.MOCK_ADMIN_TOKEN;
  const adminToken = values['admin-token'] ?? fromEnv;
  // Settings never fail open: an empty token is a mistake, not "no token".
  if (adminToken?.trim() === '') throw new UnusableError('--admin-token: the token is empty');
  return {
    url: readUrl(values.url),
    adminToken,
    session: values.session,
    format,
    failUnder: readPercent(values['fail-under']),
    required: readRequired(values.require ?? []),
    allowViolations: values['allow-violations'] === true,
  };
}

function errorBodyMessage(body: unknown): string {
  return isRecord(body) && typeof body.message === 'string' ? `: ${body.message}` : '';
}

async function fetchReport(command: CoverageCommand): Promise<CoverageReport> {
  const where = `${command.url}/__admin/coverage`;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (command.adminToken !== undefined) headers.Authorization = `Bearer ${command.adminToken}`;
  if (command.session !== undefined) headers['X-Mock-Session'] = command.session;
  let res: Response;
  let body: unknown;
  try {
    res = await fetch(where, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    body = await res.json().catch(() => undefined);
  } catch (error) {
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    throw new UnusableError(`cannot reach the mock at ${where}: ${errorMessage(cause)}`);
  }
  if (res.status !== 200) {
    const hint = res.status === 404 ? ' (is --url the mock itself, without /v1?)' : '';
    throw new UnusableError(`${where} answered ${res.status}${errorBodyMessage(body)}${hint}`);
  }
  try {
    return readCoverageReport(body);
  } catch (error) {
    throw new UnusableError(`${where}: ${errorMessage(error)}`);
  }
}

/** Why the report fails the gates given (none: it passes). */
function gateFailures(report: CoverageReport, command: CoverageCommand): string[] {
  const failures: string[] = [];
  if (command.failUnder !== undefined && exactPercent(report.summary) < command.failUnder) {
    failures.push(
      `${percentText(report)} of documented answers covered, under --fail-under ${command.failUnder}%`,
    );
  }
  for (const { operationId, status } of command.required) {
    const op = report.operations.find((o) => o.operationId === operationId);
    if (!op) {
      throw new UnusableError(`--require: the mock's contract has no operation "${operationId}"`);
    }
    if ((op.statuses[status]?.count ?? 0) === 0) {
      failures.push(`${operationId} never answered ${status} (--require)`);
    }
  }
  const { violations } = report.summary;
  if (violations > 0 && !command.allowViolations) {
    failures.push(
      `${violationsText(violations)} (GET /__admin/requests names each; --allow-violations passes them)`,
    );
  }
  return failures;
}

/** Runs `petstore-mock coverage ...`; resolves with the exit code. */
export async function runCoverageCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  output: CommandOutput,
): Promise<number> {
  try {
    const command = readCommand(argv, env);
    if (command === 'help') {
      output.out(`${COVERAGE_HELP}\n`);
      return COVERAGE_EXIT.passed;
    }
    const report = await fetchReport(command);
    const failures = gateFailures(report, command);
    output.out(formatCoverage(report, command.format));
    for (const failure of failures) output.err(`petstore-mock coverage: ${failure}`);
    return failures.length > 0 ? COVERAGE_EXIT.failed : COVERAGE_EXIT.passed;
  } catch (error) {
    // Anything unforeseen is no report either: exit 1 must only ever mean a gate failed.
    output.err(`petstore-mock coverage: ${errorMessage(error).split('\n')[0] ?? ''}`);
    return COVERAGE_EXIT.unusable;
  }
}
