/**
 * Resource inference (src/contract/infer-resources.ts) on the public contracts of the corpus:
 * a table of what it finds per contract (resources, operations claimed and left stateless, the
 * time it takes), the invariants every model keeps, and the expectations on the contracts whose
 * resources are known (the Swagger Petstore, the OpenAPI Initiative's petstore-expanded).
 *
 * Usage (after npm run build): node test/corpus/infer-resources.js [--only id,...]
 * Installs the corpus into its cache folder the first time, as run.js does. Exits 1 on a broken
 * invariant or expectation.
 */
import assert from 'node:assert/strict';
import console from 'node:console';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { contractPath, corpusHome, ensureCorpus, loadManifest } from './lib/corpus.js';

const dist = join(corpusHome, '..', '..', 'dist', 'contract');
const load = async (name) => import(pathToFileURL(join(dist, name)).href);

/** Runs of the inference timed after the first, for a warm figure. */
const WARM_RUNS = 5;

/** The roles a resource has at most one operation for (a search path may list too). */
const SINGLE_ROLES = ['create', 'read', 'replace', 'update', 'delete'];

/** What every model keeps, whatever the contract: each failure in words. */
function invariantProblems(model, operations, views) {
  const problems = [];
  const seen = new Map();
  const note = (name, where) => {
    if (seen.has(name)) problems.push(`${name} is in ${seen.get(name)} and in ${where}`);
    seen.set(name, where);
  };
  for (const resource of model.resources) {
    for (const op of resource.operations) note(op.operation, `resource ${resource.name}`);
    if (!views.view(resource.itemSchema).properties.has(resource.key.property)) {
      problems.push(`${resource.name}: its key ${resource.key.property} is not in its item`);
    }
    for (const role of SINGLE_ROLES) {
      if (resource.operations.filter((op) => op.role === role).length > 1) {
        problems.push(`${resource.name} has more than one ${role}`);
      }
    }
    const roles = new Set(resource.operations.map((op) => op.role));
    if (!roles.has('read') && !(roles.has('list') && roles.has('create'))) {
      problems.push(`${resource.name} has neither a read nor a list and a create`);
    }
    if (resource.parent && resource.parent.resource === resource.name) {
      problems.push(`${resource.name} is its own parent`);
    }
  }
  for (const { operation, reason } of model.stateless) {
    note(operation, 'stateless');
    if (reason === '') problems.push(`${operation} is stateless without a reason`);
  }
  for (const op of operations.operations) {
    if (!seen.has(op.name)) problems.push(`${op.name} is neither claimed nor stateless`);
  }
  const names = model.resources.map((r) => r.name);
  if (new Set(names).size !== names.length) problems.push(`resource names repeat: ${names}`);
  return problems;
}

/** A resource's operations by role: `{list: ['findPets'], create: ['addPet'], …}`. */
function rolesOf(resource) {
  const roles = {};
  for (const op of resource.operations) (roles[op.role] ??= []).push(op.operation);
  return roles;
}

function resourceOf(model, name) {
  const found = model.resources.find((r) => r.name === name);
  assert.ok(found, `no resource ${name} (found ${model.resources.map((r) => r.name)})`);
  return found;
}

const reasonOf = (model, operation) =>
  model.stateless.find((s) => s.operation === operation)?.reason;

/** The Swagger Petstore 3.0 and 3.1 (ReadMe's copies: Pet.id is readOnly there). */
function checkSwaggerPetstore(model) {
  const pet = resourceOf(model, 'pet');
  assert.deepEqual(rolesOf(pet), {
    list: ['findPetsByStatus'],
    create: ['addPet'],
    read: ['getPetById'],
    replace: ['updatePet'],
    delete: ['deletePet'],
  });
  // The general rule: a readOnly key is the server's, though the create's body may hold it.
  assert.deepEqual(pet.key, {
    property: 'id',
    parameter: 'petId',
    kind: 'integer',
    format: 'int64',
    fromClient: 'never',
  });
  // POST /pet documents only a 405: a create by its body, answering the item with a 201.
  assert.equal(pet.operations.find((op) => op.role === 'create').status, 201);
  const findByStatus = pet.operations.find((op) => op.operation === 'findPetsByStatus');
  assert.deepEqual(findByStatus.list.filters, [{ parameter: 'status', property: 'status' }]);
  assert.equal(
    reasonOf(model, 'updatePetWithForm'),
    'POST /pet/{petId} is not a REST shape: a POST on an item path',
  );
  assert.match(reasonOf(model, 'findPetsByTags'), /required query parameter tags/);
  assert.deepEqual(rolesOf(resourceOf(model, 'store.order')), {
    create: ['placeOrder'],
    read: ['getOrderById'],
    delete: ['deleteOrder'],
  });
  const user = resourceOf(model, 'user');
  assert.deepEqual(rolesOf(user), {
    create: ['createUser'],
    read: ['getUserByName'],
    replace: ['updateUser'],
    delete: ['deleteUser'],
  });
  // The client's own key; User requires nothing, so the server makes one where it is left out.
  assert.equal(user.key.property, 'username');
  assert.equal(user.key.fromClient, 'optional');
}

/** The contracts whose resources are known, checked beyond the invariants. */
const EXPECTED = {
  'swagger-petstore-3.0': checkSwaggerPetstore,
  'swagger-petstore-3.1': checkSwaggerPetstore,
  'oai-petstore-expanded': (model) => {
    assert.equal(model.resources.length, 1);
    const pets = resourceOf(model, 'pets');
    assert.deepEqual(rolesOf(pets), {
      list: ['findPets'],
      create: ['addPet'],
      read: ['find pet by id'],
      delete: ['deletePet'],
    });
    assert.deepEqual(pets.key, {
      property: 'id',
      parameter: 'id',
      kind: 'integer',
      format: 'int64',
      fromClient: 'never',
    });
    assert.deepEqual(model.stateless, []);
  },
};

/** Infers a contract's resources, timed: the first run (as at a start), then warm. */
async function inferOne(entry, file) {
  const { loadContract } = await load('load-contract.js');
  const { inferResources } = await load('infer-resources.js');
  const { readResourceHints } = await load('resource-hints.js');
  const { createSchemaViews } = await load('schema-view.js');
  const contract = loadContract(file, { checked: true });
  const infer = () =>
    inferResources(
      contract.document,
      contract.operations,
      readResourceHints(file, contract.document, contract.operations),
    );
  let start = performance.now();
  const model = infer();
  const firstMs = performance.now() - start;
  start = performance.now();
  for (let i = 0; i < WARM_RUNS; i += 1) infer();
  const warmMs = (performance.now() - start) / WARM_RUNS;
  const problems = invariantProblems(
    model,
    contract.operations,
    createSchemaViews(contract.document),
  );
  try {
    EXPECTED[entry.id]?.(model);
  } catch (error) {
    problems.push(error.message);
  }
  return {
    id: entry.id,
    operations: contract.operations.operations.length,
    resources: model.resources.length,
    claimed: model.resources.reduce((n, r) => n + r.operations.length, 0),
    stateless: model.stateless.length,
    firstMs,
    warmMs,
    problems,
  };
}

function renderTable(rows) {
  const header = ['contract', 'ops', 'resources', 'claimed', 'stateless', 'first ms', 'warm ms'];
  const cells = rows.map((r) =>
    r.refused === undefined
      ? [
          r.id,
          r.operations,
          r.resources,
          r.claimed,
          r.stateless,
          r.firstMs.toFixed(1),
          r.warmMs.toFixed(1),
        ].map(String)
      : [r.id, 'refused', '', '', '', '', ''],
  );
  const line = (row) => `| ${row.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...cells.map(line)].join('\n');
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  if (!existsSync(join(dist, 'infer-resources.js'))) {
    throw new Error(`${dist}/infer-resources.js is missing: run npm run build first`);
  }
  const only = values.only?.split(',');
  const entries = loadManifest().filter((entry) => !only || only.includes(entry.id));
  const dir = ensureCorpus((line) => console.error(line));
  const rows = [];
  for (const entry of entries) {
    try {
      rows.push(await inferOne(entry, contractPath(dir, entry)));
    } catch (error) {
      // A contract the mock refuses to load has no resources to infer (run.js reports it).
      rows.push({
        id: entry.id,
        refused: error.message,
        problems: entry.broken ? [] : [error.message],
      });
    }
  }
  console.log(renderTable(rows));
  const failed = rows.filter((r) => r.problems.length > 0);
  for (const row of failed) console.error(`\n${row.id}:\n  ${row.problems.join('\n  ')}`);
  console.log(failed.length === 0 ? '\ninfer-resources: every model keeps its invariants' : '');
  process.exitCode = failed.length === 0 ? 0 : 1;
}

await main();
