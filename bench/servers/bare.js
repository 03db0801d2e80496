/**
 * System (a), the machine's ceiling: bare node:http answering every route with a pre-serialized
 * body. GET /v1/pets/<id> gets fixture pet 1, other GETs the first 20 fixture pets (200); POSTs,
 * whose body is drained, get one pet (201), so creates count as successes.
 * Usage: node bench/servers/bare.js [--port N]; prints `PORT <n>`.
 */
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { URL } from 'node:url';
import { listenAndPrintPort } from './listen.js';

const pets = JSON.parse(readFileSync(new URL('../../fixtures/pets.json', import.meta.url), 'utf8'));
const LIST = Buffer.from(JSON.stringify(pets.slice(0, 20)));
const PET = Buffer.from(JSON.stringify(pets.find((pet) => pet.id === 1)));
const CREATED = Buffer.from(JSON.stringify({ id: 1000, name: 'Bench', categoryId: 1 }));

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    req.resume();
    req.on('end', () => {
      send(res, 201, CREATED);
    });
  } else {
    send(res, 200, req.url?.startsWith('/v1/pets/') ? PET : LIST);
  }
});

listenAndPrintPort(server);
