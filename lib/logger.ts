// The logger interface and the two loggers parley ships: JSON lines on stderr, and silence.

/** What an entry says besides its message: ids, counts, error text; never a secret. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Writes one JSON line per entry to stderr. Never given secrets: callers log ids, not keys. */
export const jsonLogger: Logger = {
  info: (message, fields) => writeLog('info', message, fields),
  warn: (message, fields) => writeLog('warn', message, fields),
  error: (message, fields) => writeLog('error', message, fields),
};

function writeLog(level: string, message: string, fields?: LogFields): void {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n');
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
