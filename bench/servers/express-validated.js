/**
 * System (g), the validated stack's ceiling: system (e) with express-openapi-validator in front of
 * its routes, configured as the app configures it for the pet API (requests and answers validated
 * against openapi.yaml). Nothing of the mock's own runs: what is left between (g) and (e) is what
 * e-o-v costs on this contract, and no change of ours can get the app above (g).
 * Usage: node bench/servers/express-validated.js [--port N]; prints `PORT <n>`.
 */
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import process from 'node:process';
import { URL } from 'node:url';
import express from 'express';
import { middleware } from 'express-openapi-validator';
import { parse } from 'yaml';

const pets = JSON.parse(readFileSync(new URL('../../fixtures/pets.json', import.meta.url), 'utf8'));
const document = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
const list = pets.slice(0, 20);
const pet = pets.find((candidate) => candidate.id === 1);
let nextId = 1000;

function portArgument(argv) {
  const index = argv.indexOf('--port');
  return index >= 0 ? Number(argv[index + 1]) : 0;
}

const api = express.Router();
api.use(
  express.json(),
  // The options of src/contract/validator.ts.
  middleware({
    apiSpec: { ...document, servers: [{ url: '/' }] },
    useRequestUrl: true,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: true,
    validateSecurity: false,
    validateApiSpec: false,
    fileUploader: false,
  }),
);
api.get('/pets', (_req, res) => {
  res.json(list);
});
api.get('/pets/:petId', (_req, res) => {
  res.json(pet);
});
api.post('/pets', (req, res) => {
  nextId += 1;
  res.status(201).json({ ...req.body, id: nextId });
});

const app = express();
// The settings the app itself makes, so that the two differ only by what the app does.
app.disable('x-powered-by');
app.set('etag', false);
app.use('/v1', api);

const server = createServer(app);
server.listen(portArgument(process.argv), '127.0.0.1', () => {
  const address = server.address();
  console.log(`PORT ${typeof address === 'object' && address !== null ? address.port : ''}`);
});
