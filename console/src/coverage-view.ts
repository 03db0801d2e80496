import type { CoverageReport, OperationCoverage } from './admin-client.js';
import { byId, h } from './dom.js';

/** `200 ×3 (1 forced)` for each status picked, or a dash. */
function statusList(
  op: OperationCoverage,
  pick: (documented: boolean, count: number) => boolean,
): string {
  const listed = [...op.statuses]
    .filter(([, answers]) => pick(answers.documented, answers.count))
    .map(([status, answers]) => {
      if (answers.count === 0) return status;
      const forced = answers.forced > 0 ? ` (${String(answers.forced)} forced)` : '';
      return `${status} ×${String(answers.count)}${forced}`;
    });
  return listed.length === 0 ? '—' : listed.join(', ');
}

/** The coverage report as a table: per operation, documented statuses answered and missing. */
export class CoverageView {
  readonly #rows = byId('coverage-rows', HTMLTableSectionElement);
  readonly #summary = byId('coverage-summary', HTMLParagraphElement);
  readonly #broken = byId('broken-examples', HTMLDivElement);
  readonly #brokenList = byId('broken-examples-list', HTMLUListElement);
  #shown = '';

  show(report: CoverageReport, session: string): void {
    const scope = session === '' ? 'the whole suite (every session)' : `session ${session}`;
    const summary = `${String(report.summary.covered)} of ${String(report.summary.documented)} documented answers (${String(report.summary.percent)}%), for ${scope}.`;
    // Rebuilt only when it changed: a poll a second must not churn the page.
    const shown = JSON.stringify([
      summary,
      report.operations.map((op) => [...op.statuses]),
      report.brokenExamples,
    ]);
    if (shown === this.#shown) return;
    this.#shown = shown;
    this.#broken.hidden = report.brokenExamples.length === 0;
    this.#brokenList.replaceChildren(
      ...report.brokenExamples.map((broken) =>
        h(
          'li',
          {},
          h('strong', {}, `${broken.operation} ${String(broken.status)}`),
          ` (${broken.mediaType}): ${broken.problem}`,
        ),
      ),
    );
    this.#summary.textContent = summary;
    this.#rows.replaceChildren(
      ...report.operations.map((op) =>
        h(
          'tr',
          { role: 'row' },
          h(
            'th',
            { scope: 'row', role: 'rowheader', 'data-label': 'Operation' },
            op.operationId,
            h('span', { class: 'hint block' }, `${op.method} ${op.path}`),
          ),
          h(
            'td',
            { role: 'cell', 'data-label': 'Answered' },
            statusList(op, (doc, n) => doc && n > 0),
          ),
          h(
            'td',
            { role: 'cell', 'data-label': 'Missing', class: 'missing' },
            statusList(op, (doc, n) => doc && n === 0),
          ),
          h(
            'td',
            { role: 'cell', 'data-label': 'Not documented' },
            statusList(op, (doc) => !doc),
          ),
        ),
      ),
    );
  }
}
