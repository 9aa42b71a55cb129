/**
 * `act` at most once per `intervalMs`: the first call acts, later calls within the interval since the last act are
 * dropped, and the first call after it acts again (a warning repeated while a failure lasts, not once per failure).
 */
export function oncePer<T>(intervalMs: number, act: (value: T) => void, now: () => number = Date.now): (value: T) => void {
  let lastActed = -Infinity;
  return (value) => {
    if (now() - lastActed < intervalMs) return;
    lastActed = now();
    act(value);
  };
}
