/** Container health probe: exit 0 if GET /__admin/health on 127.0.0.1:$PORT is 200 within 2 s. */
import { request } from 'node:http';

const TIMEOUT_MS = 2000;
// As in the CLI, an empty variable counts as unset.
const port = process.env.PORT || '4010';
const token = process.env.MOCK_ADMIN_TOKEN;
const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};

// One deadline for the whole exchange (connect, headers, body); unref'd so it never keeps node alive.
setTimeout(() => {
  console.error(`healthcheck: no answer within ${TIMEOUT_MS} ms`);
  process.exit(1);
}, TIMEOUT_MS).unref();

const req = request(
  { host: '127.0.0.1', port, path: '/__admin/health', method: 'GET', headers },
  (res) => {
    res.resume();
    if (res.statusCode !== 200) console.error(`healthcheck: status ${String(res.statusCode)}`);
    process.exit(res.statusCode === 200 ? 0 : 1);
  },
);
req.on('error', (error) => {
  console.error(`healthcheck: ${error.message}`);
  process.exit(1);
});
req.end();
