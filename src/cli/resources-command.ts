import { parseArgs } from 'node:util';
import { inferResources } from '../contract/infer-resources.js';
import { loadContract } from '../contract/load-contract.js';
import type { Resource, ResourceModel, ResourceOperation } from '../contract/resource-model.js';
import { readResourceHints } from '../contract/resource-hints.js';
import { errorMessage } from '../util/error-message.js';
import { createPetHandlers, withoutPetStore } from '../api/pet-handlers.js';
import { defaultContractPath } from '../util/paths.js';
import type { CommandOutput } from './coverage-command.js';

export const RESOURCES_HELP = [
  'petstore-mock resources: print the resources the mock infers from a contract, and why each',
  'other operation stays stateless (as GET /__admin/resources shows them)',
  '',
  'Usage: petstore-mock resources [--contract <file>] [--json]',
  '',
  '  --contract <file>   the contract (default: the packaged openapi.yaml; env MOCK_CONTRACT)',
  '  --json              the model as JSON',
  '  --help, -h          print this help',
  '',
  'Hints: x-mock-key, x-mock-stateless and x-mock-filter in the contract, or <name>.mock-hints.yaml',
  'beside it (docs/resources.md). Exit codes: 0 printed, 2 bad arguments or an unusable contract.',
].join('\n');

/** One operation of a resource in words: `list listUsers 200, filters role, paging limit/offset`. */
function operationLine(op: ResourceOperation): string {
  const parts = [`${op.role.padEnd(8)}${op.operation} ${String(op.status)}`];
  const list = op.list;
  if (list && list.filters.length > 0) {
    parts.push(
      `filters ${list.filters.map((f) => (f.parameter === f.property ? f.parameter : `${f.parameter}→${f.property}`)).join(', ')}`,
    );
  }
  if (list?.paging) {
    const { size, start } = list.paging;
    parts.push(
      `paging ${[size?.parameter, start && `${start.parameter} (${start.kind})`].filter(Boolean).join(', ')}`,
    );
  }
  if (list?.itemsProperty !== undefined) parts.push(`items in '${list.itemsProperty}'`);
  if (op.answerWrapper !== undefined) parts.push(`answer wrapped in '${op.answerWrapper}'`);
  return `    ${parts.join('; ')}`;
}

function resourceLines(resource: Resource): string[] {
  const { key } = resource;
  const made = key.fromClient === 'never' ? 'made by the mock' : `the client's (${key.fromClient})`;
  return [
    `${resource.name}: ${resource.collectionPath}${resource.itemPath === undefined ? '' : `, ${resource.itemPath}`}`,
    `  key ${key.property} (${key.kind}${key.format === undefined ? '' : ` ${key.format}`}, ${made})${resource.parent ? `; under ${resource.parent.resource} by ${resource.parent.parameter}` : ''}`,
    ...resource.hints.map((hint) => `  hint: ${hint}`),
    ...resource.operations.map(operationLine),
  ];
}

/** The model in words, for a terminal. */
export function resourcesText(model: ResourceModel): string {
  const lines =
    model.resources.length === 0
      ? ['No resources inferred: every operation below is answered from the contract.']
      : model.resources.flatMap(resourceLines);
  if (model.stateless.length > 0) {
    lines.push('', `Stateless (${String(model.stateless.length)}): answered from the contract`);
    for (const { operation, reason } of model.stateless) lines.push(`  ${operation}: ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `petstore-mock resources`: reads a contract and prints what the mock infers from it. */
export function runResourcesCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  output: CommandOutput,
): number {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        contract: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    if (values.help === true) {
      output.out(`${RESOURCES_HELP}\n`);
      return 0;
    }
    const path = values.contract ?? env.MOCK_CONTRACT ?? defaultContractPath;
    const contract = loadContract(path, { checked: path !== defaultContractPath });
    const hints = readResourceHints(path, contract.document, contract.operations);
    const model = withoutPetStore(
      inferResources(contract.document, contract.operations, hints),
      contract,
    );
    const pets = [...createPetHandlers({}, contract).keys()];
    output.out(
      values.json === true
        ? `${JSON.stringify(model, null, 2)}\n`
        : `${pets.length > 0 ? `pets: the Pet Store's own, kept by their handlers (${pets.join(', ')})\n` : ''}${resourcesText(model)}`,
    );
    return 0;
  } catch (error) {
    output.err(`petstore-mock resources: ${errorMessage(error).split('\n')[0] ?? ''}`);
    return 2;
  }
}
