import * as scripts from '../../src/state/redis-scripts.js';
import {
  argvOf,
  RECORD_ARITY,
  RECORD_CALL,
  type RedisScript,
} from '../../src/state/redis-scripts.js';

/** Every script the module exports, by its constant's name. */
const all: [string, RedisScript][] = Object.entries(scripts).flatMap(([constant, value]) =>
  typeof value === 'object' && 'lua' in value ? [[constant, value]] : [],
);

/** LIBRARY's one positional read: the prefix. */
const PREFIX_LINE = /^local P = ARGV\[1\]$/gm;
/** The generated prologue: the named arguments, and where a tail starts. */
const ARG_LINE = /^local ARG = (.*)$/gm;
const REST_LINE = /^local REST = (\d+)$/gm;

/** `{ a = ARGV[2], b = ARGV[3] }` -> [['a', '2'], ['b', '3']]. */
function bindings(table: string): string[][] {
  return [...table.matchAll(/(\w+) = ARGV\[([^\]]+)\]/g)].map(([, name = '', at = '']) => [
    name,
    at,
  ]);
}

/** The script's text without LIBRARY's prefix line and the generated prologue. */
function bodyOf(lua: string): string {
  return lua.replace(PREFIX_LINE, '').replace(ARG_LINE, '').replace(REST_LINE, '');
}

describe('the Redis scripts take their arguments by name', () => {
  it('finds every script the module exports', () => {
    expect(all.map(([constant]) => constant)).toEqual(
      expect.arrayContaining(['BEGIN_CALL', 'CREATE_PET', 'RECORD', 'CLAIM_PREFIX', 'RESET_ALL']),
    );
    expect(all).toHaveLength(20);
  });

  it.each(all)('%s reads ARGV by number only in the prefix line and its prologue', (_, script) => {
    expect(script.lua.match(PREFIX_LINE)).toHaveLength(1);
    expect(bodyOf(script.lua)).not.toMatch(/ARGV\[\s*\d/);
    // Without a tail, nothing past the named arguments is read at all.
    if (!script.tail) expect(bodyOf(script.lua)).not.toMatch(/ARGV|REST/);
  });

  it.each(all)('%s binds exactly its declared names, in order, from ARGV[2]', (_, script) => {
    const lines = [...script.lua.matchAll(ARG_LINE)].map(([, table = '']) => table);
    expect(lines).toHaveLength(1);
    expect(bindings(lines[0] ?? '')).toEqual(
      script.names.map((name, index) => [name, String(index + 2)]),
    );
    const rest = [...script.lua.matchAll(REST_LINE)].map(([, at = '']) => Number(at));
    expect(rest).toEqual(script.tail ? [script.names.length + 2] : []);
  });

  it.each(all)('%s reads every name it declares and no other', (_, script) => {
    const read = new Set([...bodyOf(script.lua).matchAll(/\bARG\.(\w+)/g)].map(([, n]) => n));
    expect([...read].sort()).toEqual([...script.names].sort());
  });

  it.each(all)('%s gets from argvOf each value at the index its prologue binds', (_, script) => {
    const args = Object.fromEntries(script.names.map((name) => [name, `value of ${name}`]));
    const argv = ['prefix', ...argvOf(script, args, ['tail'])];
    const [table = ''] = [...script.lua.matchAll(ARG_LINE)].map(([, t = '']) => t);
    for (const [name = '', at = ''] of bindings(table)) {
      // Lua counts from 1.
      expect(argv[Number(at) - 1]).toBe(`value of ${name}`);
    }
    expect(argv[script.names.length + 1]).toBe('tail');
  });

  it("reads RECORD's calls by RECORD_CALL's names, a call every RECORD_ARITY values", () => {
    expect(RECORD_ARITY).toBe(RECORD_CALL.length);
    const reader = /^local function call_at\(i\) return (.*) end$/m.exec(scripts.RECORD.lua);
    expect(bindings(reader?.[1] ?? '')).toEqual(
      RECORD_CALL.map((name, index) => [name, index === 0 ? 'i' : `i + ${index}`]),
    );
    expect(scripts.RECORD.lua).toContain(`for i = REST, #ARGV, ${RECORD_ARITY} do`);
  });

  it('puts the named arguments in declared order whatever the order of the object', () => {
    const argv = argvOf(scripts.SET_SWITCH, {
      remaining: '3',
      scenario: 'down',
      maxSessions: '10',
      sessionTtl: '600',
      sid: 's1',
    });
    expect(argv).toEqual(['s1', '600', '10', 'down', '3']);
  });

  it('refuses, as types, a missing or an unknown name', () => {
    const open = { sessionTtl: '600', maxSessions: '10' };
    // @ts-expect-error -- sid is missing
    expect(argvOf(scripts.RESET, open)).toEqual([undefined, '600', '10']);
    // @ts-expect-error -- sessionId is no name of RESET's
    expect(argvOf(scripts.RESET, { sid: 's1', sessionId: 's1', ...open })).toEqual([
      's1',
      '600',
      '10',
    ]);
  });
});
