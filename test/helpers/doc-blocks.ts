/**
 * Reading the project's Markdown pages (README.md and docs/*.md) as the docs test does: their
 * fenced code blocks with the marker above each, their relative links and headings, and the
 * install command each test-runner recipe gives. Pure functions of the text, so the rules are
 * unit-tested on small pages (test/unit/doc-blocks.test.ts).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What happens to a block: the marker is the last line above it that is not blank. */
export type Marker =
  | { kind: 'run'; contract?: string }
  | { kind: 'output' }
  | { kind: 'file'; path: string }
  | { kind: 'not run'; reason: string };

export interface Block {
  /** The page, relative to the package root: `README.md`, `docs/limits.md`. */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  marker: Marker | undefined;
}

/** The languages a run block may have: `sh` runs in bash, `js` as an ES module in node. */
export const RUNNABLE = ['sh', 'js'];

/** `page:line`, as an editor opens it. */
export const where = (block: { page: string; line: number }): string =>
  `${block.page}:${String(block.line)}`;

/** README.md first, then docs/*.md by name: the pages that exist now. */
export function docPages(root: string): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs];
}

function parseMarker(line: string | undefined): Marker | undefined {
  const found =
    /^<!-- readme: (run(?: --contract (\S+))?|output|file (\S+)|not run: (.+?)) -->$/.exec(
      line ?? '',
    );
  if (!found) return undefined;
  if (found[3] !== undefined) return { kind: 'file', path: found[3] };
  if (found[4] !== undefined) return { kind: 'not run', reason: found[4] };
  if (found[2] !== undefined) return { kind: 'run', contract: found[2] };
  return found[1] === 'run' ? { kind: 'run' } : { kind: 'output' };
}

/** Each line of a page with whether it lies inside a fenced block (fences included). */
function fencedLines(markdown: string): { text: string; fenced: boolean }[] {
  let inside = false;
  return markdown.split('\n').map((text) => {
    const fence = /^```/.test(text);
    const fenced = inside || fence;
    if (fence) inside = !inside;
    return { text, fenced };
  });
}

/** The fenced blocks of a page, each with the marker on the line above it. */
export function blocksOf(markdown: string, page: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && /^```\s*$/.test(line));
    if (end === -1) throw new Error(`${page}:${String(i + 1)}: a block that never ends`);
    blocks.push({
      page,
      line: i + 1,
      lang: open[1] ?? '',
      text: `${lines.slice(i + 1, end).join('\n')}\n`,
      marker: parseMarker(lines.slice(0, i).findLast((line) => line.trim() !== '')),
    });
    i = end;
  }
  return blocks;
}

/** Blocks with a language (other than `text`) and no marker: each must say what happens to it. */
export function unmarked(blocks: readonly Block[]): string[] {
  return blocks
    .filter((block) => block.lang !== '' && block.lang !== 'text' && !block.marker)
    .map(where);
}

/** Run blocks in a language the test cannot run. */
export function unrunnable(blocks: readonly Block[]): string[] {
  return blocks
    .filter((block) => block.marker?.kind === 'run' && !RUNNABLE.includes(block.lang))
    .map(where);
}

/** Each run block with the output block right after it (undefined when there is none). */
export function runsOf(blocks: readonly Block[]): { block: Block; expected: Block | undefined }[] {
  return blocks.flatMap((block, i) => {
    if (block.marker?.kind !== 'run') return [];
    const next = blocks[i + 1];
    return [{ block, expected: next?.marker?.kind === 'output' ? next : undefined }];
  });
}

/**
 * Lines (1-based, within the block) of a shell block where a `?` stands outside quotes: zsh, the
 * macOS shell, refuses `curl http://host/v1/pets?limit=3` (no matches found). `$?` and comments
 * are fine.
 */
export function unquotedQuestionMarks(shell: string): number[] {
  const lines = new Set<number>();
  let quote: "'" | '"' | undefined;
  let line = 1;
  for (let i = 0; i < shell.length; i += 1) {
    const char = shell[i];
    if (char === '\n') line += 1;
    if (quote === "'") {
      if (char === "'") quote = undefined;
    } else if (char === '\\') {
      if (shell[i + 1] === '\n') line += 1;
      i += 1;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '#' && (i === 0 || /\s/.test(shell[i - 1] ?? ''))) {
      const end = shell.indexOf('\n', i);
      i = (end === -1 ? shell.length : end) - 1;
    } else if (char === '?' && shell[i - 1] !== '$') {
      lines.add(line);
    }
  }
  return [...lines];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces become hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors of a page's headings (outside code blocks), with GitHub's -1, -2 for repeats. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const { text, fenced } of fencedLines(markdown)) {
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(text);
    if (!heading?.[1]) continue;
    const slug = slugOf(heading[1]);
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${slug}-${String(n)}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The relative links and images of a page (outside code blocks): `[text](target)`. */
export function linksOf(markdown: string): { line: number; target: string }[] {
  return fencedLines(markdown).flatMap(({ text, fenced }, i) =>
    fenced
      ? []
      : [...text.matchAll(/\]\(([^)\s]+)\)/g)]
          .map((found) => found[1] ?? '')
          .filter((target) => !/^[a-z]+:/.test(target))
          .map((target) => ({ line: i + 1, target })),
  );
}

/** What a recipe's install command adds besides the package (`<the package>` in the docs). */
const INSTALL = /`npm install --save-dev <the package>((?: [^`\s]+)*)`/;

/**
 * What the docs tell users to install for the recipe whose files are in examples/<example>/: the
 * packages of the last `npm install --save-dev <the package> ...` command above its first file
 * block and below the previous recipe's files. Throws when the recipe has none of its own.
 */
export function recipeInstall(markdown: string, example: string): string[] {
  let install: string[] | undefined;
  let previous: string | undefined;
  for (const line of markdown.split('\n')) {
    const command = INSTALL.exec(line);
    if (command) install = (command[1] ?? '').split(' ').filter((name) => name !== '');
    const file = /^<!-- readme: file examples\/([^/]+)\//.exec(line)?.[1];
    if (file === undefined) continue;
    if (file === example) {
      if (install === undefined) throw new Error(`no install command above examples/${example}`);
      return install;
    }
    if (file !== previous) install = undefined;
    previous = file;
  }
  throw new Error(`no recipe shows examples/${example}`);
}

/**
 * What the docs say to install for the recipe in examples/<example>/: every page that shows its
 * files must say it (recipeInstall), and all of them the same. Throws otherwise.
 */
export function installFor(root: string, example: string): string[] {
  const said = docPages(root)
    .map((page) => readFileSync(join(root, page), 'utf8'))
    .filter((markdown) => markdown.includes(`<!-- readme: file examples/${example}/`))
    .map((markdown) => recipeInstall(markdown, example).join(' '));
  const [first, ...others] = said;
  if (first === undefined) throw new Error(`no page shows examples/${example}`);
  if (others.some((other) => other !== first)) {
    throw new Error(`the pages disagree on what examples/${example} installs: ${said.join('; ')}`);
  }
  return first.split(' ').filter((name) => name !== '');
}
