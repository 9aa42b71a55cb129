import { useState } from 'preact/hooks';
import { ApiError, type AdminApi, type TaggedPet } from '../api.js';
import { ErrorNote } from '../parts.js';
import { href } from '../route.js';
import type { PetStatus } from '../types.js';
import { useLoad } from '../useLoad.js';

/** The moves the API allows (it refuses any other with 409 `invalid_transition`): `sold` is final. */
const NEXT: Readonly<Record<PetStatus, readonly PetStatus[]>> = {
  available: ['pending', 'sold'],
  pending: ['available', 'sold'],
  sold: [],
};

/** One animal: its state as last read, and the status changes allowed from it, made only if nobody changed it since. */
export function Animal({ api, id }: { api: AdminApi; id: number }) {
  const loaded = useLoad(() => api.getPet(id), [id]);
  const [shown, setShown] = useState<TaggedPet | null>(null);
  const [outcome, setOutcome] = useState<{ kind: 'done' | 'conflict'; text: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const current = shown ?? loaded.data;

  async function move(to: PetStatus) {
    if (!current) return;
    setError(null);
    setOutcome(null);
    try {
      const changed = await api.updatePet(id, { status: to }, current.etag);
      setShown(changed);
      setOutcome({ kind: 'done', text: `Status changed to ${changed.pet.status}.` });
    } catch (caught) {
      if (caught instanceof ApiError && (caught.status === 412 || caught.status === 409)) {
        const now = await api.getPet(id);
        setShown(now);
        setOutcome({
          kind: 'conflict',
          text:
            caught.status === 412
              ? `Someone else changed this animal first: nothing was changed. It is now ${now.pet.status}; choose again.`
              : `That change is not allowed: ${caught.message} It is now ${now.pet.status}.`,
        });
      } else setError(caught);
    }
  }

  return (
    <>
      <p>
        <a href={href('animals')}>Animals</a>
      </p>
      <h1>Animal {id}</h1>
      <ErrorNote error={loaded.error ?? error} />
      {outcome && (
        <p class={outcome.kind === 'conflict' ? 'error' : 'ok'} role={outcome.kind === 'conflict' ? 'alert' : 'status'}>
          {outcome.text}
        </p>
      )}
      {current && (
        <>
          <dl>
            <dt>Name</dt>
            <dd data-testid="pet-name">{current.pet.name}</dd>
            <dt>Category</dt>
            <dd>{current.pet.categoryId}</dd>
            <dt>Status</dt>
            <dd data-testid="pet-status">{current.pet.status}</dd>
          </dl>
          <h2>Change the status</h2>
          {NEXT[current.pet.status].length === 0 ? (
            <p>Sold is final: no change is possible.</p>
          ) : (
            <p>
              {NEXT[current.pet.status].map((to) => (
                <button key={to} type="button" onClick={() => void move(to)}>
                  Mark {to}
                </button>
              ))}
            </p>
          )}
        </>
      )}
    </>
  );
}
