import { runResourcesCommand } from '../../src/cli/resources-command.js';
import { defaultContractPath } from '../../src/util/paths.js';
import { ownPath } from '../helpers/own-contract.js';

/** Runs the command in-process; its exit code, standard output and error lines. */
function run(args: string[]): { code: number; out: string; err: string[] } {
  let out = '';
  const err: string[] = [];
  const code = runResourcesCommand(
    args,
    {},
    {
      out: (text) => {
        out += text;
      },
      err: (line) => {
        err.push(line);
      },
    },
  );
  return { code, out, err };
}

describe('petstore-mock resources', () => {
  it('prints the resources inferred from a contract, with keys, roles and the stateless', () => {
    const { code, out, err } = run(['--contract', ownPath('resources', 'shop.yaml')]);
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out).toContain('users: /users, /users/{username}');
    expect(out).toContain("key username (string, the client's (required))");
    expect(out).toContain('users.orders: /users/{username}/orders');
    expect(out).toContain('; under users by username');
    expect(out).toMatch(/list {4}listUsers 200; filters role; paging limit, offset \(offset\)/);
  });

  it('says the Pet Store keeps its pets in its own handlers', () => {
    const { code, out } = run(['--contract', defaultContractPath]);
    expect(code).toBe(0);
    expect(out).toContain(
      "pets: the Pet Store's own, kept by their handlers (listPets, createPet, getPet)",
    );
  });

  it('gives the model as JSON', () => {
    const { out } = run(['--contract', ownPath('resources', 'shop.yaml'), '--json']);
    const model: unknown = JSON.parse(out);
    expect(model).toMatchObject({
      resources: [{ name: 'users' }, { name: 'users.orders' }, { name: 'articles' }],
    });
  });

  it('refuses an unusable contract or flag with exit 2 and one line', () => {
    const missing = run(['--contract', ownPath('resources', 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toHaveLength(1);
    expect(missing.err[0]).toMatch(/^petstore-mock resources: .*nope\.yaml/);
    expect(run(['--bogus']).code).toBe(2);
  });
});
