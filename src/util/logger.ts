import { pino, type Logger, type LevelWithSilent } from 'pino';

export type LogLevel = LevelWithSilent;

/** JSON lines by default; human-readable when `pretty` (a terminal). */
export function createLogger(level: LogLevel, pretty: boolean): Logger {
  const options = { name: 'petstore-mock', level };
  if (!pretty) return pino(options);
  // A transport loads pino-pretty (in a worker) only when a terminal asks for it.
  return pino({
    ...options,
    transport: {
      target: 'pino-pretty',
      options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
    },
  });
}
