/** The run's results as a table, the failures grouped by kind, and the verdict. */

const EXAMPLES_PER_GROUP = 4;
const DETAIL_CHARS = 400;

const LEGEND =
  '4xx, 401: to valid requests (+N: 4xx the operation documents for that input, not counted); ' +
  'invalid: answers that break the contract; no request: operations no valid request exists for; ' +
  'same bytes: GET answers equal across two starts with the same seed; RSS: after start → after the run.';

const COLUMNS = [
  ['contract', (r) => r.id],
  ['ops', (r) => (r.checked === r.operations ? r.operations : `${r.checked}/${r.operations}`)],
  ['sent', (r) => r.sent],
  ['2xx valid', (r) => r.ok2xx],
  [
    '4xx',
    (r) => `${r.status4xx}${r.documented4xx.length > 0 ? ` +${r.documented4xx.length}` : ''}`,
  ],
  ['5xx', (r) => r.status5xx],
  ['invalid', (r) => r.invalid],
  ['401', (r) => r.unauthorized],
  ['no request', (r) => r.unbuildable.length],
  ['same bytes', (r) => `${r.sameBytes.compared - r.sameBytes.differing}/${r.sameBytes.compared}`],
  ['start ms', (r) => r.startMs ?? ''],
  ['RSS MiB', (r) => (r.rssStartMiB === undefined ? '' : `${r.rssStartMiB} → ${r.rssEndMiB}`)],
];

/** A Markdown table, one row per contract; a refused start shows as such. */
export function renderTable(results) {
  const rows = results.map((r) =>
    r.refused !== undefined && r.startMs === undefined
      ? [
          r.id,
          r.broken === undefined ? 'REFUSED' : 'refused (listed broken)',
          ...COLUMNS.slice(2).map(() => ''),
        ]
      : COLUMNS.map(([, cell]) => String(cell(r))),
  );
  const header = COLUMNS.map(([name]) => name);
  const widths = header.map((name, i) =>
    Math.max(name.length, ...rows.map((row) => row[i].length)),
  );
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  const table = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  return [...table, '', LEGEND].join('\n');
}

/** Failures that count against the mock: all, but the refusal of a contract listed as broken. */
export function countedFailures(result) {
  return result.failures.filter((f) => !(f.kind === 'refused' && result.broken !== undefined));
}

/** Failures grouped by kind, with a few examples each (taken from as many contracts as can be). */
export function renderFailures(results) {
  const groups = new Map();
  for (const result of results) {
    for (const failure of countedFailures(result)) {
      const group = groups.get(failure.kind) ?? [];
      group.push({ contract: result.id, ...failure });
      groups.set(failure.kind, group);
    }
  }
  const out = [];
  for (const [kind, failures] of groups) {
    const perContract = countBy(failures, (f) => f.contract);
    out.push(
      `\n## ${kind}: ${failures.length} (${[...perContract].map(([c, n]) => `${c} ${n}`).join(', ')})`,
    );
    for (const failure of spread(failures, EXAMPLES_PER_GROUP)) out.push(describe(failure));
  }
  out.push(...renderNotes(results));
  return out.join('\n');
}

/** What is reported but not counted: requests that could not be built, documented 4xx answers. */
function renderNotes(results) {
  const out = [];
  const unbuilt = results.flatMap((r) => r.unbuildable.map((u) => ({ contract: r.id, ...u })));
  if (unbuilt.length > 0) {
    out.push(`\n## operations with no valid request (not sent, not counted): ${unbuilt.length}`);
    for (const u of spread(unbuilt, EXAMPLES_PER_GROUP * 2))
      out.push(`- ${u.contract} ${u.op}: ${clip(u.reason)}`);
  }
  const documented = results.flatMap((r) => r.documented4xx.map((d) => ({ contract: r.id, ...d })));
  if (documented.length > 0) {
    out.push(`\n## 4xx the contract documents for that input (not counted): ${documented.length}`);
    for (const d of spread(documented, EXAMPLES_PER_GROUP))
      out.push(`${describe(d)}\n  why: ${d.excuse}`);
  }
  const relaxed = results.filter((r) => (r.oracleRelaxed ?? []).length > 0);
  if (relaxed.length > 0) {
    out.push('\n## what the oracle could not check in the contracts themselves');
    for (const r of relaxed)
      out.push(`- ${r.id}: ${r.oracleRelaxed.map((m) => clip(m, 160)).join(' | ')}`);
  }
  const logged = results.filter((r) => r.mockErrors.length > 0);
  if (logged.length > 0) {
    out.push('\n## errors the mock logged (first few per contract)');
    for (const r of logged)
      out.push(`- ${r.id}: ${r.mockErrors.map((m) => clip(m, 160)).join(' | ')}`);
  }
  return out;
}

function describe(f) {
  const lines = [
    `- ${f.contract}${f.op === undefined ? '' : ` ${f.op}`}${f.status === undefined ? '' : ` → ${f.status}`}`,
  ];
  if (f.request !== undefined) lines.push(`  sent: ${clip(f.request, 200)}`);
  if (f.detail !== undefined) lines.push(`  ${clip(f.detail)}`);
  if (f.body !== undefined && f.body !== '') lines.push(`  body: ${clip(f.body, 200)}`);
  return lines.join('\n');
}

/** The verdict: {ok, reasons}; ok only with no counted failure at all. */
export function verdictOf(results) {
  const reasons = [];
  for (const result of results) {
    const kinds = countBy(countedFailures(result), (f) => f.kind);
    for (const [kind, n] of kinds) reasons.push(`${result.id}: ${n} × ${kind}`);
  }
  return { ok: reasons.length === 0, reasons };
}

function countBy(items, key) {
  const counts = new Map();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Up to `n` items, one contract after another, so that one noisy contract does not hide the rest. */
function spread(items, n) {
  const byContract = new Map();
  for (const item of items)
    byContract.set(item.contract, [...(byContract.get(item.contract) ?? []), item]);
  const queues = [...byContract.values()];
  const picked = [];
  for (let round = 0; picked.length < n && queues.some((q) => q.length > round); round += 1) {
    for (const queue of queues)
      if (queue[round] !== undefined && picked.length < n) picked.push(queue[round]);
  }
  return picked;
}

function clip(text, length = DETAIL_CHARS) {
  const flat = String(text).replace(/\s+/g, ' ');
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}
