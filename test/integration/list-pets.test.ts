import request from 'supertest';
import { AUTH, createTestApp, fixturePets } from '../helpers/test-app.js';
import type { Pet } from '../../src/state/pet.js';

function manyPets(count: number): Pet[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `pet-${i + 1}`,
    categoryId: 1,
    status: (['available', 'pending', 'sold'] as const)[i % 3],
  }));
}

describe('listPets (GET /v1/pets)', () => {
  it('returns at most 20 pets when limit is omitted (rule 4.1.1)', async () => {
    const { app } = await createTestApp({ pets: manyPets(50) });
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toHaveLength(20);
  });

  it.each([1, 7, 50, 100])('returns at most limit=%i pets (rule 4.1.2)', async (limit) => {
    const { app } = await createTestApp({ pets: manyPets(150) });
    const res = await request(app).get(`/v1/pets?limit=${limit}`).set(AUTH).expect(200);
    expect(res.body).toHaveLength(limit);
  });

  it('returns fewer than limit when the store holds fewer', async () => {
    const { app } = await createTestApp({ pets: manyPets(3) });
    const res = await request(app).get('/v1/pets?limit=10').set(AUTH).expect(200);
    expect(res.body).toHaveLength(3);
  });

  it('returns an empty array for an empty store', async () => {
    const { app } = await createTestApp({ pets: [] });
    const res = await request(app).get('/v1/pets').set(AUTH).expect(200);
    expect(res.body).toEqual([]);
  });

  it.each(['available', 'pending', 'sold'])(
    'returns only pets with status=%s (rule 4.1.3)',
    async (status) => {
      const { app } = await createTestApp({ pets: manyPets(90) });
      const res = await request(app).get(`/v1/pets?status=${status}&limit=100`).set(AUTH);
      expect(res.status).toBe(200);
      const pets = res.body as Pet[];
      expect(pets).toHaveLength(30);
      expect(pets.every((pet) => pet.status === status)).toBe(true);
    },
  );

  it('applies limit after the status filter', async () => {
    const { app } = await createTestApp({ pets: manyPets(90) });
    const res = await request(app).get('/v1/pets?status=sold&limit=4').set(AUTH).expect(200);
    expect((res.body as Pet[]).map((pet) => pet.id)).toEqual([3, 6, 9, 12]);
  });

  it('lists in ascending id order whatever the order of the initial data', async () => {
    const shuffled = manyPets(30).reverse();
    const { app } = await createTestApp({ pets: shuffled });
    const res = await request(app).get('/v1/pets?limit=30').set(AUTH).expect(200);
    const ids = (res.body as Pet[]).map((pet) => Number(pet.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBe(1);
  });

  it('serves the default fixtures: more than 20 pets covering every status', async () => {
    expect(fixturePets.length).toBeGreaterThan(20);
    const statuses = new Set(fixturePets.map((pet) => pet.status));
    expect(statuses).toEqual(new Set(['available', 'pending', 'sold', undefined]));
    const { app } = await createTestApp();
    const res = await request(app).get('/v1/pets?limit=100').set(AUTH).expect(200);
    expect(res.body).toEqual(fixturePets);
  });
});
