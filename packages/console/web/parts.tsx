import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

/** A column of a table: its header, and what a row shows in it. */
export type Column<T> = readonly [header: string, cell: (row: T) => ComponentChildren];

/** Rows under a caption and column headers; once loaded, `empty` instead when there are none. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  rowClass,
  empty,
}: {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string | number;
  rowClass?: (row: T) => string;
  empty: string;
}) {
  return (
    <>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map(([header]) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr key={rowKey(row)} class={rowClass?.(row)}>
              {columns.map(([header, cell]) => (
                <td key={header}>{cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows?.length === 0 && <p>{empty}</p>}
    </>
  );
}

/** What went wrong, in the API's own words. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof ApiError ? `${error.message} (${error.status} ${error.code})` : 'The admin API could not be reached.';
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

/** A field with its label, and the API's message about it when it refused it. */
export function Field({ id, label, problem, children }: { id: string; label: string; problem?: string | undefined; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {problem && (
        <span class="problem" id={`${id}-problem`}>
          {problem}
        </span>
      )}
    </div>
  );
}

/** A text input with its label, and the API's message about it when it refused it. */
export function TextField({
  id,
  label,
  value,
  onInput,
  problem,
  type = 'text',
  numeric = false,
}: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  problem?: string | undefined;
  type?: 'text' | 'url' | 'datetime-local';
  numeric?: boolean;
}) {
  return (
    <Field id={id} label={label} problem={problem}>
      <input
        id={id}
        // Preact types each input type's attributes apart (tsc needs the assertion; these three take the same ones).
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
        type={type as 'text'}
        inputMode={numeric ? 'numeric' : undefined}
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
        {...(problem && { 'aria-invalid': true, 'aria-describedby': `${id}-problem` })}
      />
    </Field>
  );
}

/** A secret shown this once, with a button that copies it. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="secret" role="status">
      <p>{label} It is shown this once: store it now.</p>
      <code data-testid="secret">{secret}</code>{' '}
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard.writeText(secret).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

/** A button that asks first, in a modal dialog (Escape or Cancel keep things as they are). */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-label={label}>
        <p>{question}</p>
        <form method="dialog">
          <button value="cancel" autofocus>
            Cancel
          </button>{' '}
          <button
            value="confirm"
            class="danger"
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {label}
          </button>
        </form>
      </dialog>
    </>
  );
}

/** "Previous" and "Next" over cursor pages: the cursors of the pages before are kept to go back. */
export function usePages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  return {
    cursor,
    reset: () => setCursors([undefined]),
    controls: (next: string | null | undefined) => (
      <nav class="pages" aria-label="Pages">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>{' '}
        <button type="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
          Next page
        </button>
      </nav>
    ),
  };
}

/** Refreshes every `ms` while the page is open. */
export function useEvery(ms: number, tick: () => void): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** A whole number as typed, or the text itself, for the API to say what is wrong with it. */
export const asTyped = (text: string): number => (/^\d+$/.test(text.trim()) ? Number(text) : (text as unknown as number));
