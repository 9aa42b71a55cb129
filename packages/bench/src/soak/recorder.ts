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

  /**
   * Called for each answer with its body and headers: keeps the id of a 201, a 5xx with what makes it expected or
   * not, and a 429 the caller says should not have happened (a key that never exceeds its limits).
   */
  details(client: string, status: number, body: string, header: (name: string) => string | null, limitedUnexpectedly: boolean): void {
    if (status === 201) {
      const id = (parse(body) as { id?: unknown } | null)?.id;
      if (typeof id === 'number') this.createdIds.push(id);
    } else if (status === 429) {
      if (limitedUnexpectedly) this.unexpectedLimits.push({ atMs: this.now(), client, code: errorCode(body) });
    } else if (status >= 500) {
      this.serverErrors.push({ atMs: this.now(), status, retryAfter: header('retry-after'), code: errorCode(body), client });
    }
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

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

function errorCode(body: string): string | null {
  const code = (parse(body) as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}
