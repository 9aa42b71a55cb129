import { useState } from 'preact/hooks';
import { ApiError, type AdminApi } from '../api.js';
import { asTyped, ErrorNote, Field, invalid, usePages } from '../parts.js';
import { href } from '../route.js';
import type { PetStatus } from '../types.js';
import { useLoad } from '../useLoad.js';

const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

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
      <table>
        <caption>Animals, by id{status && `: ${status}`}</caption>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Category</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {listed.data?.pets.map((pet) => (
            <tr key={pet.id}>
              <td>{pet.id}</td>
              <td>
                <a href={href('animals', String(pet.id))}>{pet.name}</a>
              </td>
              <td>{pet.categoryId}</td>
              <td>{pet.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {listed.data?.pets.length === 0 && <p>No animals.</p>}
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
      <Field id="pet-name" label="Name" problem={fields['name']}>
        <input id="pet-name" value={name} onInput={(event) => setName(event.currentTarget.value)} {...invalid('pet-name', fields['name'])} />
      </Field>
      <Field id="pet-category" label="Category id" problem={fields['categoryId']}>
        <input
          id="pet-category"
          inputMode="numeric"
          value={categoryId}
          onInput={(event) => setCategoryId(event.currentTarget.value)}
          {...invalid('pet-category', fields['categoryId'])}
        />
      </Field>
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
