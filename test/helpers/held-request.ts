/** How long a request may take to reach its scenario before the test says so (not a timing goal). */
const REACH_LIMIT_MS = 20_000;

/** The scenario switched on for the default session, by name; null when none is. */
async function activeScenario(origin: string): Promise<string | null> {
  const res = await fetch(`${origin}/__admin/scenarios`);
  const listing: unknown = await res.json();
  if (typeof listing !== 'object' || listing === null || !('active' in listing)) {
    throw new Error(`not a scenario listing: ${JSON.stringify(listing)}`);
  }
  const { active } = listing;
  if (active === null) return null;
  return typeof active === 'object' && 'name' in active ? String(active.name) : 'unreadable';
}

/**
 * Sends a pet API request that `scenario` (a delay) holds, and resolves once the mock at `origin`
 * holds it: the scenario, switched on for one matching request, is off again once that request
 * took it. Waits on the mock's state, not on time. The answer comes in `answer`.
 */
export async function sendHeld(
  origin: string,
  scenario: string,
  send: () => Promise<Response>,
): Promise<{ answer: Promise<Response> }> {
  const on = await fetch(`${origin}/__admin/scenario`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: scenario, times: 1 }),
  });
  if (on.status !== 204) throw new Error(`cannot switch ${scenario} on: ${on.status}`);
  const answer = send();
  answer.catch(() => undefined); // a stop may cut it: the caller looks
  const deadline = Date.now() + REACH_LIMIT_MS;
  while ((await activeScenario(origin)) !== null) {
    if (Date.now() > deadline) throw new Error(`no request took ${scenario}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { answer };
}
