import { pino, type Logger, type LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';

export type LogLevel = LevelWithSilent;

/** JSON lines by default; human-readable when `pretty` (a terminal). */
export function createLogger(level: LogLevel, prettyPrint: boolean): Logger {
  const options = { name: 'petstore-mock', level };
  return prettyPrint
    ? pino(options, pretty({ colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }))
    : pino(options);
}
