/**
 * The answers of the bare Express systems, (e) and (g): the first 20 fixture pets for a list,
 * fixture pet 1 for a get, and for a create the body with the next id, status 201. Bodies go
 * through res.json, as in any Express app. Each server wires them to its own routes.
 */
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';

const pets = JSON.parse(readFileSync(new URL('../../fixtures/pets.json', import.meta.url), 'utf8'));
const list = pets.slice(0, 20);
const pet = pets.find((candidate) => candidate.id === 1);
let nextId = 1000;

export function listPets(_req, res) {
  res.json(list);
}

export function getPet(_req, res) {
  res.json(pet);
}

export function createPet(req, res) {
  nextId += 1;
  res.status(201).json({ ...req.body, id: nextId });
}
