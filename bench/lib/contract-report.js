/** The Markdown report of one run of bench/contract.js. */
import { FIGURES, GOALS, OPERATION_COUNT, ratioOf } from './contract-figures.js';
import { busyWarning, table } from './report.js';

const whole = (value) => Math.round(value).toLocaleString('en-US');
const mib = (value) => value.toFixed(1);

function amount(value, unit) {
  return unit === 'MiB' ? `${mib(value)} MiB` : `${whole(value)} ms`;
}

/** A figure over the rounds: its median, then its spread (min–max) when there was more than one. */
function cell(figure, unit) {
  if (figure == null) return '';
  const spread =
    figure.rounds.length > 1
      ? ` (${unit === 'MiB' ? mib(figure.min) : whole(figure.min)}–${unit === 'MiB' ? mib(figure.max) : whole(figure.max)})`
      : '';
  return `${amount(figure.median, unit)}${spread}`;
}

function figureTable(results, contract) {
  const keys = Object.keys(results.systems).filter((key) => contract.systems[key] !== undefined);
  const ratioShown = keys.includes('mock') && keys.includes('prism');
  const header = [
    '',
    ...keys.map((key) => results.systems[key].column),
    ...(ratioShown ? ['mock / Prism'] : []),
  ];
  const rows = FIGURES.map(([key, label, unit]) => {
    const of = (system) => contract.systems[system]?.figures[key];
    const ratio = ratioShown ? ratioOf(of('mock'), of('prism')) : undefined;
    return [
      label,
      ...keys.map((system) => cell(of(system), unit)),
      ...(ratioShown ? [ratio === undefined ? '' : `${ratio.toFixed(2)}×`] : []),
    ];
  });
  return table(header, rows);
}

function failedLines(results, contract) {
  const lines = [];
  for (const [key, system] of Object.entries(contract.systems)) {
    for (const { round, path, status } of system.failed) {
      const answer = status === 0 ? 'no answer' : `answered ${status}`;
      lines.push(`- ${results.systems[key].column}, round ${round}: GET ${path} ${answer}`);
    }
  }
  return lines.length === 0 ? [] : ['Answers that were not a success:', '', ...lines, ''];
}

function contractSection(results, contract) {
  const megabytes = (contract.bytes / 1e6).toFixed(2);
  return [
    `## ${contract.label}`,
    '',
    `\`${contract.file}\` (${contract.package}): ${megabytes} MB, ${contract.operationCount} ` +
      `operations, ${contract.plainGets} GETs without parameters. Credentials: ` +
      `${contract.first.credentials}. First answer: GET ${contract.first.path}; then, once each: ` +
      contract.others.map(({ path }) => `\`${path}\``).join(', ') +
      '.',
    '',
    figureTable(results, contract),
    '',
    ...failedLines(results, contract),
  ];
}

function systemLines(results) {
  return Object.values(results.systems).map((system) => {
    const runtime = system.runtime ? ` (Node ${system.runtime})` : '';
    const name = `**${system.column}**: ${system.label}${runtime}`;
    return system.available ? `- ${name}` : `- ${name}: unavailable (${system.reason})`;
  });
}

function floorTable(floors) {
  return table(
    ['contract', 'floor', 'measured', 'goal', 'result'],
    floors.map((f) => [f.contract, f.floor, f.measured, f.goal, f.result]),
  );
}

/** The Markdown report of one run. */
export function renderContractMarkdown(results) {
  const { settings } = results;
  const pinned = results.pinning
    ? `servers on core ${[...new Set(Object.values(results.cores.servers))].join(', ')} ` +
      `(taskset), the runner on core ${results.cores.runner}`
    : 'not pinned (no taskset or a single core)';
  const count = (result) => results.floors.filter((f) => f.result === result).length;
  const unjudged = results.floors.length - count('met') - count('missed');
  return [
    `# petstore-mock benchmark: a large contract${results.quick ? ' (quick run: smoke test, not for comparison)' : ''}`,
    '',
    `${results.date} · servers on Node ${results.runtimes.node24} · runner on Node ` +
      `${results.runtimes.runner} · ${results.cpu} · ${pinned} · load average at start ` +
      `${results.loadAverageAtStart.join(', ')}. ${settings.rounds} round(s), the contracts and ` +
      'the systems interleaved in each, every server started afresh; each cell is the median ' +
      'over the rounds (min–max). Compare ratios, not absolute figures.',
    '',
    ...busyWarning(results),
    ...systemLines(results),
    '',
    `Start to first answer: spawn to the first answer of the fixed GET, polled every ` +
      `${settings.pollMs} ms on a fresh connection. CPU time: the server's utime+stime from ` +
      `/proc, read right after it. RSS: VmRSS of the server's process tree, ${settings.settleMs} ms ` +
      `after that answer, then right after the ${OPERATION_COUNT} operations. Those are the ` +
      `first request of ${OPERATION_COUNT} other GETs without parameters (the same for both ` +
      'systems: spread evenly over them in path order), asked one after the other on fresh ' +
      'connections once the RSS after start is read, each timed from sending to its last byte; ' +
      'a round gives their median, p90 (nearest rank) and max.',
    '',
    ...results.contracts.flatMap((contract) => contractSection(results, contract)),
    '## Floors (issue 29, Node 24)',
    '',
    floorTable(results.floors),
    '',
    `${count('met')} of ${results.floors.length} met` +
      `${unjudged > 0 ? ` (${unjudged} not judged)` : ''}. Start within ${GOALS.startOverPrism}× of Prism's, ` +
      `RSS after start no more than Prism's, and an operation's first answer within ` +
      `${GOALS.operationFirstAnswerMs} ms (judged on the median of the ${OPERATION_COUNT}; ` +
      'p90 and max above).',
    '',
  ].join('\n');
}
