/**
 * System (g), the validated stack's ceiling for throughput: system (e) with the pet API's
 * express-openapi-validator in front of its routes (createContractValidator from dist/, as the app
 * builds it: requests and answers validated against openapi.yaml). Nothing of the mock's own runs:
 * what is left between (g) and (e) is what the validator costs on this contract, and no change of
 * ours can serve more requests a second than (g). It reads openapi.yaml as the app does (through
 * its build-time JSON snapshot, dist/util/parse-yaml.js, so no YAML parser is loaded) and the bench
 * runs it with the app's V8 launch flags: its start and idle memory are the validated stack's own
 * floor too (the app builds the admin API's validator only on first use, so it does no more at
 * start).
 * Usage: node bench/servers/express-validated.js [--port N]; prints `PORT <n>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { URL } from 'node:url';
import express from 'express';
import { createContractValidator } from '../../dist/contract/validator.js';
import { parseYaml } from '../../dist/util/parse-yaml.js';
import { listenAndPrintPort } from './listen.js';
import { createPet, getPet, listPets } from './pet-answers.js';

const document = parseYaml(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));

const api = express.Router();
api.use(express.json(), createContractValidator(document));
api.get('/pets', listPets);
api.get('/pets/:petId', getPet);
api.post('/pets', createPet);

const app = express();
// The settings the app itself makes, so that the two differ only by what the app does.
app.disable('x-powered-by');
app.set('etag', false);
app.use('/v1', api);

listenAndPrintPort(createServer(app));
