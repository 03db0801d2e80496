/** Figures from repeated runs: medians, so that one disturbed run decides nothing. */

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * One measurement from its rounds: each of req/s, p50 and p99 is its own median over the rounds
 * (so they may come from different rounds), and one round disturbed by other work on the machine
 * does not decide a target; requests, failures and errors are summed (a failure in any round
 * makes the measurement invalid). The rounds are kept for latest.json.
 */
export function combineRounds(rounds) {
  const statusCounts = {};
  for (const round of rounds) {
    for (const [code, count] of Object.entries(round.statusCounts)) {
      statusCounts[code] = (statusCounts[code] ?? 0) + count;
    }
  }
  return {
    rps: median(rounds.map((round) => round.rps)),
    p50: median(rounds.map((round) => round.p50)),
    p99: median(rounds.map((round) => round.p99)),
    requests: rounds.reduce((sum, round) => sum + round.requests, 0),
    bad: rounds.reduce((sum, round) => sum + round.bad, 0),
    errors: rounds.reduce((sum, round) => sum + (round.errors ?? 0), 0),
    statusCounts,
    connections: rounds[0].connections,
    seconds: rounds[0].seconds,
    rounds: rounds.map(({ rps, p50, p99, bad }) => ({ rps, p50, p99, bad })),
  };
}
