/**
 * The corpus: contracts listed in contracts.json, read from npm packages pinned by this folder's
 * package-lock.json and installed on demand into a cache folder outside the repository (third
 * parties' contracts are never committed here).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** test/corpus/, where the manifest and the pins live. */
export const corpusHome = join(dirname(fileURLToPath(import.meta.url)), '..');

const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** SPDX ids a contract of the corpus may carry. */
const ALLOWED = /^(MIT|Apache-2\.0|BSD-[23]-Clause|CC0-1\.0|CC-BY-\d\.\d)$/;

const FIELDS = ['id', 'package', 'path', 'source', 'licence', 'licenceFrom', 'author', 'styles'];

/**
 * The install folder: ${XDG_CACHE_HOME:-~/.cache}/petstore-mock/corpus-<hash of the lockfile>, so a
 * change of pins installs afresh and never mixes with an older install.
 */
export function corpusDir() {
  const lock = readFileSync(join(corpusHome, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).digest('hex').slice(0, 16);
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return join(cache, 'petstore-mock', `corpus-${hash}`);
}

/** The manifest's entries, checked: every field given, ids unique, licences allowed. */
export function loadManifest() {
  const { contracts } = JSON.parse(readFileSync(join(corpusHome, 'contracts.json'), 'utf8'));
  const ids = new Set();
  for (const entry of contracts) {
    const missing = FIELDS.filter((field) => entry[field] === undefined);
    if (missing.length > 0) {
      throw new Error(`contracts.json: ${entry.id ?? '?'} lacks ${missing.join(', ')}`);
    }
    if (ids.has(entry.id)) throw new Error(`contracts.json: id ${entry.id} twice`);
    ids.add(entry.id);
    if (!ALLOWED.test(entry.licence)) {
      throw new Error(
        `contracts.json: ${entry.id} has licence ${entry.licence}, not one the corpus allows`,
      );
    }
  }
  return contracts;
}

/**
 * Installs the pinned packages unless already there (npm ci into a partial folder, then moved into
 * place whole, so a run cut short never leaves half an install). Returns the folder.
 */
export function ensureCorpus(log) {
  const dir = corpusDir();
  if (existsSync(join(dir, 'package-lock.json'))) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) {
    copyFileSync(join(corpusHome, file), join(partial, file));
  }
  log(`corpus: installing the pinned contract packages into ${dir}`);
  const npm = spawnSync(
    'npm',
    ['ci', '--prefix', partial, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS },
  );
  if (npm.status !== 0) {
    rmSync(partial, { recursive: true, force: true });
    const why = npm.error?.message ?? npm.stderr.trim().split('\n').slice(-3).join(' | ');
    throw new Error(`npm ci of the corpus packages failed: ${why}`);
  }
  if (existsSync(dir)) {
    rmSync(partial, { recursive: true, force: true }); // another run was first
  } else {
    renameSync(partial, dir);
  }
  return dir;
}

/** Where an entry's contract file is in the install folder. */
export function contractPath(dir, entry) {
  return join(dir, 'node_modules', entry.package, entry.path);
}

/**
 * Why an entry's declared licence disagrees with the contract's own info.license, or undefined.
 * An entry that says its licence comes from elsewhere must name a contract without one.
 */
export function licenceProblem(entry, doc) {
  const declared = doc.info?.license;
  if (entry.licenceFrom !== 'info.license') {
    return declared === undefined
      ? undefined
      : `the contract has info.license ${JSON.stringify(declared)}: read it (licenceFrom: info.license)`;
  }
  const found = spdxOf(declared);
  return found === entry.licence
    ? undefined
    : `info.license ${JSON.stringify(declared)} reads as ${found}, the manifest says ${entry.licence}`;
}

/** An SPDX id for an info.license object (its identifier, else its name read loosely). */
function spdxOf(license) {
  if (typeof license?.identifier === 'string') return license.identifier;
  const name = String(license?.name ?? '');
  if (/apache/i.test(name)) return 'Apache-2.0';
  if (/\bmit\b/i.test(name)) return 'MIT';
  if (/cc0/i.test(name)) return 'CC0-1.0';
  const ccBy = /creative commons attribution (\d\.\d)/i.exec(name);
  if (ccBy !== null && !/non-?commercial|share-?alike|no-?deriv/i.test(name)) {
    return `CC-BY-${ccBy[1]}`;
  }
  return name || 'none';
}
