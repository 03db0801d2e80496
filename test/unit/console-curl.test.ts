import { execFileSync } from 'node:child_process';
import { curlCommand, shellQuote } from '../../console/src/curl.js';

const ORIGIN = 'http://127.0.0.1:4010';

/** The words a POSIX shell makes of a command line, with TOKEN and BODY set. */
function wordsOf(command: string): string[] {
  const script = `TOKEN=t BODY='{}'; set -- ${command.replace(/^curl /, '')}; printf '%s\\n' "$@"`;
  return execFileSync('sh', ['-c', script], { encoding: 'utf8' }).trimEnd().split('\n');
}

describe("the QA console's curl command", () => {
  it("turns curl's URL globbing off: a journaled [1-2] or {a,b} is one request", () => {
    const command = curlCommand(
      { method: 'GET', path: '/v1/pets/[1-2]', query: 'q={a,b}' },
      ORIGIN,
      '',
    );
    expect(wordsOf(command)).toEqual([
      '-sS',
      '--globoff',
      '-H',
      'Authorization: Bearer t',
      `${ORIGIN}/v1/pets/[1-2]?q={a,b}`,
    ]);
  });

  it('repeats a GET with its query, the token left to $TOKEN', () => {
    const command = curlCommand({ method: 'GET', path: '/v1/pets', query: 'limit=0' }, ORIGIN, '');
    expect(command).toBe(
      `curl -sS --globoff -H "Authorization: Bearer $TOKEN" '${ORIGIN}/v1/pets?limit=0'`,
    );
    expect(wordsOf(command)).toEqual([
      '-sS',
      '--globoff',
      '-H',
      'Authorization: Bearer t',
      `${ORIGIN}/v1/pets?limit=0`,
    ]);
  });

  it('names the session, and leaves a POST body to $BODY', () => {
    const command = curlCommand({ method: 'POST', path: '/v1/pets', query: '' }, ORIGIN, 'w-1');
    expect(wordsOf(command)).toEqual([
      '-sS',
      '--globoff',
      '-X',
      'POST',
      '-H',
      'Authorization: Bearer t',
      '-H',
      'X-Mock-Session: w-1',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{}',
      `${ORIGIN}/v1/pets`,
    ]);
  });

  it('asks for a HEAD with --head, not -X HEAD (which waits for a body)', () => {
    const command = curlCommand({ method: 'HEAD', path: '/v1/pets', query: '' }, ORIGIN, '');
    expect(wordsOf(command)).toContain('--head');
    expect(wordsOf(command)).not.toContain('-X');
  });

  it('quotes what the client sent, so the shell runs none of it', () => {
    const path = "/v1/pets/1';touch /tmp/x;'$(id)`id`";
    expect(wordsOf(shellQuote(path))).toEqual([path]);
    const command = curlCommand({ method: 'GET', path, query: 'a=$(id)' }, ORIGIN, '');
    expect(wordsOf(command).at(-1)).toBe(`${ORIGIN}${path}?a=$(id)`);
  });
});
