import { Router } from 'express';
import type { PetStore } from '../store/pet-store.js';

/** The control plane under /__admin: health for container checks, reset between tests. */
export function createAdminRoutes(store: PetStore): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.post('/reset', async (_req, res) => {
    await store.reset();
    res.status(204).end();
  });
  return router;
}
