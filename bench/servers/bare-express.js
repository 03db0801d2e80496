/**
 * System (e), the stack's ceiling: bare Express 5 with nothing but the three routes of the
 * workloads. GET /v1/pets answers the first 20 fixture pets, GET /v1/pets/:petId fixture pet 1,
 * POST /v1/pets parses its body with express.json and answers 201 with it. Bodies go through
 * res.json, as in any Express app. Usage: node bench/servers/bare-express.js [--port N]; prints
 * `PORT <n>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { URL } from 'node:url';
import express from 'express';
import { listenAndPrintPort } from './listen.js';

const pets = JSON.parse(readFileSync(new URL('../../fixtures/pets.json', import.meta.url), 'utf8'));
const list = pets.slice(0, 20);
const pet = pets.find((candidate) => candidate.id === 1);
let nextId = 1000;

const app = express();
// The settings the app itself makes, so that the two differ only by what the app does.
app.disable('x-powered-by');
app.set('etag', false);
app.get('/v1/pets', (_req, res) => {
  res.json(list);
});
app.get('/v1/pets/:petId', (_req, res) => {
  res.json(pet);
});
app.post('/v1/pets', express.json(), (req, res) => {
  nextId += 1;
  res.status(201).json({ ...req.body, id: nextId });
});

const server = createServer(app);
listenAndPrintPort(server);
