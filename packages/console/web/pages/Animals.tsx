import { useState } from 'preact/hooks';
import { ApiError, type AdminApi } from '../api.js';
import { asTyped, DataTable, ErrorNote, Field, TextField, usePages, type Column } from '../parts.js';
import { href } from '../route.js';
import type { Pet, PetStatus } from '../types.js';
import { useLoad } from '../useLoad.js';

const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

const PET_COLUMNS: readonly Column<Pet>[] = [
  ['Id', (pet) => pet.id],
  ['Name', (pet) => <a href={href('animals', String(pet.id))}>{pet.name}</a>],
  ['Category', (pet) => pet.categoryId],
  ['Status', (pet) => pet.status],
];

export function Animals({ api }: { api: AdminApi }) {
  const [status, setStatus] = useState<PetStatus | ''>('');
  const pages = usePages();
  const listed = useLoad(() => api.listPets({ status: status || undefined, cursor: pages.cursor }), [status, pages.cursor]);

  return (
    <>
      <h1>Animals</h1>
      <AddAnimal api={api} onAdded={listed.reload} />
      <h2>List</h2>
      <Field id="status-filter" label="Status">
        <select
          id="status-filter"
          value={status}
          onChange={(event) => {
            setStatus(event.currentTarget.value as PetStatus | '');
            pages.reset();
          }}
        >
          <option value="">Every status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </Field>
      <ErrorNote error={listed.error} />
      <DataTable
        caption={`Animals, by id${status && `: ${status}`}`}
        columns={PET_COLUMNS}
        rows={listed.data?.pets}
        rowKey={(pet) => pet.id}
        empty="No animals."
      />
      {pages.controls(listed.data?.next)}
    </>
  );
}

function AddAnimal({ api, onAdded }: { api: AdminApi; onAdded: () => void }) {
  const [name, setName] = useState('');
  const [categoryId, setCategoryId] = useState('1');
  const [error, setError] = useState<unknown>(null);
  const [added, setAdded] = useState<string | null>(null);
  const fields = error instanceof ApiError ? error.fields : {};

  async function add(event: Event) {
    event.preventDefault();
    setError(null);
    setAdded(null);
    try {
      const { pet } = await api.createPet({ name, categoryId: asTyped(categoryId) });
      setAdded(`Added ${pet.name} (id ${pet.id}).`);
      setName('');
      onAdded();
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <form onSubmit={(event) => void add(event)} aria-labelledby="add-animal">
      <h2 id="add-animal">Add an animal</h2>
      <TextField id="pet-name" label="Name" value={name} onInput={setName} problem={fields['name']} />
      <TextField id="pet-category" label="Category id" value={categoryId} onInput={setCategoryId} problem={fields['categoryId']} numeric />
      <button type="submit">Add</button>
      {error !== null && !(error instanceof ApiError && error.code === 'validation_error') && <ErrorNote error={error} />}
      {error instanceof ApiError && error.code === 'validation_error' && (
        <p class="error" role="alert">
          {error.message}
        </p>
      )}
      {added && <p role="status">{added}</p>}
    </form>
  );
}
