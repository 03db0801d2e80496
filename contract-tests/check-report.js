/**
 * Reads the JUnit XML report of a Specmatic contract-test run and decides pass or fail (used by
 * scripts/contract-test.sh). Every positive test must pass. A negative test may fail only if
 * contract-tests/expected-failures.yaml lists it, and then only with a status mismatch whose received
 * status is the listed one. A listed test that passes or does not run also fails the check, so the
 * list stays exact.
 *
 * Usage: node contract-tests/check-report.js <junit.xml> <expected-failures.yaml>
 */
import console from 'node:console';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { parse } from 'yaml';

const [xmlPath, expectedPath] = process.argv.slice(2);
if (!xmlPath || !expectedPath) {
  console.error('usage: node contract-tests/check-report.js <junit.xml> <expected-failures.yaml>');
  process.exit(2);
}

/** @param {string} s */
const unescapeXml = (s) =>
  s
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** @param {string} tag @param {string} attr */
const attribute = (tag, attr) => {
  const m = new RegExp(`\\s${attr}="([^"]*)"`).exec(tag);
  return m ? unescapeXml(m[1]) : undefined;
};

// --- the report ---
const xml = readFileSync(xmlPath, 'utf8');
/** @type {{name: string, kind: 'positive' | 'negative' | 'other', outcome: 'passed' | 'failed' | 'skipped', message: string}[]} */
const tests = [];
const testcaseRe = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
for (const m of xml.matchAll(testcaseRe)) {
  const fullName = attribute(m[1], 'name') ?? '';
  // "Contract Tests > SpecmaticJUnitSupport > contractTest() > -ve  Scenario: ..." -> "-ve  Scenario: ..."
  const name = fullName.replace(/^.*?contractTest\(\) > /, '');
  const body = m[3] ?? '';
  const failure =
    /<(failure|error)\b([^>]*)>/.exec(body) ?? /<(failure|error)\b([^>]*)\/>/.exec(body);
  const skipped = /<skipped\b/.test(body);
  const kind = name.startsWith('+ve ')
    ? 'positive'
    : name.startsWith('-ve ')
      ? 'negative'
      : 'other';
  tests.push({
    name,
    kind,
    outcome: failure ? 'failed' : skipped ? 'skipped' : 'passed',
    message: failure ? (attribute(failure[2], 'message') ?? '') : '',
  });
}
const suite = /<testsuite\b([^>]*)>/.exec(xml);
const declared = suite ? Number(attribute(suite[1], 'tests')) : NaN;

// --- the expected failures ---
/** @type {{reason: string, got: number, tests: string[]}[]} */
const groups = parse(readFileSync(expectedPath, 'utf8')) ?? [];
/** @type {Map<string, {reason: string, got: number}>} */
const expected = new Map();
for (const g of groups) {
  if (typeof g.reason !== 'string' || !Number.isInteger(g.got) || !Array.isArray(g.tests)) {
    console.error(
      `${expectedPath}: every entry needs reason (string), got (status) and tests (list)`,
    );
    process.exit(2);
  }
  for (const t of g.tests) expected.set(t, { reason: g.reason, got: g.got });
}

// --- the verdict ---
const problems = [];
const count = (kind, outcome) =>
  tests.filter((t) => t.kind === kind && t.outcome === outcome).length;
let expectedFailures = 0;
for (const t of tests) {
  const listed = expected.get(t.name);
  if (t.outcome === 'skipped') {
    problems.push(`SKIPPED (a test must run): ${t.name}`);
  } else if (t.outcome === 'failed' && !listed) {
    problems.push(`FAILED: ${t.name}\n${indent(t.message)}`);
  } else if (t.outcome === 'failed' && listed) {
    // Only the listed kind of failure is accepted: a status mismatch receiving exactly `got`.
    const received = [...t.message.matchAll(/response contained status (\d+)/g)].map((m) =>
      Number(m[1]),
    );
    const rules = [...t.message.matchAll(/\b([A-Z]\d{4,5}):/g)].map((m) => m[1]);
    const onlyStatus = rules.length > 0 && rules.every((r) => r === 'R0002');
    if (
      t.kind !== 'negative' ||
      !onlyStatus ||
      received.length === 0 ||
      received.some((s) => s !== listed.got)
    ) {
      problems.push(
        `FAILED, not as listed (expected only a status mismatch receiving ${listed.got}): ${t.name}\n${indent(t.message)}`,
      );
    } else {
      expectedFailures += 1;
    }
  } else if (t.outcome === 'passed' && listed) {
    problems.push(
      `PASSED but listed as an expected failure (remove it from ${expectedPath}): ${t.name}`,
    );
  }
}
const ran = new Set(tests.map((t) => t.name));
for (const name of expected.keys()) {
  if (!ran.has(name))
    problems.push(`LISTED but not run (remove or rename it in ${expectedPath}): ${name}`);
}
if (tests.length === 0) problems.push('the report holds no test');
if (declared !== tests.length)
  problems.push(`the report declares ${declared} tests but holds ${tests.length}`);
if (tests.filter((t) => t.kind === 'negative').length === 0)
  problems.push(
    'no negative (generative) test ran: is resiliency testing on in contract-tests/specmatic.yaml?',
  );

/** @param {string} s */
function indent(s) {
  return s
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `      ${l}`)
    .join('\n');
}

const passed = tests.filter((t) => t.outcome === 'passed').length;
console.log(`Specmatic contract tests: ${tests.length} run`);
console.log(
  `  positive: ${count('positive', 'passed')} passed, ${count('positive', 'failed')} failed`,
);
console.log(
  `  negative: ${count('negative', 'passed')} passed, ${count('negative', 'failed')} failed ` +
    `(${expectedFailures} of them expected, listed in ${expectedPath})`,
);
if (count('other', 'passed') + count('other', 'failed') > 0)
  console.log(`  other: ${count('other', 'passed')} passed, ${count('other', 'failed')} failed`);
if (problems.length > 0) {
  console.log(`\n${problems.length} problem(s):`);
  for (const p of problems) console.log(`  ${p}`);
}
// The closing line CI reads: listed (expected) failures count as neither; every problem counts as failed.
console.log(`specmatic: ${passed} passed, ${problems.length} failed`);
process.exit(problems.length > 0 ? 1 : 0);
