// The logger interface and the two loggers parley ships: JSON lines on stderr, and silence.

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Writes one JSON line per entry to stderr. Never given secrets: callers log ids, not keys. */
export const jsonLogger: Logger = {
  info: (message, fields) => writeLog('info', message, fields),
  warn: (message, fields) => writeLog('warn', message, fields),
  error: (message, fields) => writeLog('error', message, fields),
};

function writeLog(level: string, message: string, fields?: Record<string, unknown>): void {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n');
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
