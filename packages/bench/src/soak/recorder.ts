/** Answers of one slice of the run. */
export class SliceCounts {
  readonly statuses: Record<string, number> = {};
  /** Response times of the 2xx answers (ms): what the latency is judged on. */
  readonly latencies: number[] = [];
  /** Requests that got no answer: connection errors and timeouts (10 s). */
  errors = 0;

  get answered(): number {
    return Object.values(this.statuses).reduce((sum, n) => sum + n, 0);
  }
}

/** A 5xx answer (or no answer at all), kept to be judged against the drills' windows. */
export interface ServerError {
  /** Milliseconds since the load started. */
  atMs: number;
  /** The status, or 0 for no answer. */
  status: number;
  retryAfter: string | null;
  /** The Error body's `code`, when the body was one. */
  code: string | null;
  /** Which client saw it. */
  client: string;
}

/** Collects every answer of the run, slice by slice. */
export class Recorder {
  private current = new SliceCounts();
  readonly serverErrors: ServerError[] = [];
  readonly createdIds: number[] = [];
  /** Answers 429 to a key that never exceeds its limits: a key banned or limited by an outage. */
  readonly unexpectedLimits: { atMs: number; client: string; code: string | null }[] = [];

  constructor(readonly startedAt: number) {}

  now(): number {
    return Date.now() - this.startedAt;
  }

  answer(status: number, latencyMs: number): void {
    this.current.statuses[status] = (this.current.statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) this.current.latencies.push(latencyMs);
  }

  /** Called by a client for each answer it judges itself: 5xx bodies and headers, 429s of keys with room. */
  details(client: string, status: number, body: string, header: (name: string) => string | null, limitsNeverReached: boolean): void {
    if (status < 429 || (status > 429 && status < 500)) return;
    const code = errorCode(body);
    if (status === 429) {
      if (limitsNeverReached) this.unexpectedLimits.push({ atMs: this.now(), client, code });
      return;
    }
    this.serverErrors.push({ atMs: this.now(), status, retryAfter: header('retry-after'), code, client });
  }

  noAnswer(client: string): void {
    this.current.errors++;
    this.serverErrors.push({ atMs: this.now(), status: 0, retryAfter: null, code: null, client });
  }

  /** Ends the current slice and starts the next. */
  cut(): SliceCounts {
    const ended = this.current;
    this.current = new SliceCounts();
    return ended;
  }
}

function errorCode(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : null;
  } catch {
    return null;
  }
}
