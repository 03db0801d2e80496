/**
 * System (e), the stack's ceiling: bare Express 5 with nothing but the three routes of the
 * workloads (pet-answers.js); POST /v1/pets parses its body with express.json.
 * Usage: node bench/servers/bare-express.js [--port N]; prints `PORT <n>`.
 */
import { createServer } from 'node:http';
import express from 'express';
import { listenAndPrintPort } from './listen.js';
import { createPet, getPet, listPets } from './pet-answers.js';

const app = express();
// The settings the app itself makes, so that the two differ only by what the app does.
app.disable('x-powered-by');
app.set('etag', false);
app.get('/v1/pets', listPets);
app.get('/v1/pets/:petId', getPet);
app.post('/v1/pets', express.json(), createPet);

listenAndPrintPort(createServer(app));
