import type { AdminApi } from '../api.js';
import { DataTable, ErrorNote, usePages, when, type Column } from '../parts.js';
import type { StoreEventPage } from '../types.js';
import { useLoad } from '../useLoad.js';

const EVENT_COLUMNS: readonly Column<StoreEventPage['events'][number]>[] = [
  ['When', (event) => when(event.timestamp)],
  ['Id', (event) => event.id],
  ['Type', (event) => event.type],
  ['Data', (event) => <code>{JSON.stringify(event.data)}</code>],
];

/** The recorded events, newest first, with the payload their webhooks carry. */
export function Events({ api }: { api: AdminApi }) {
  const pages = usePages();
  const listed = useLoad(() => api.listEvents(pages.cursor), [pages.cursor]);
  return (
    <>
      <h1>Events</h1>
      <ErrorNote error={listed.error} />
      <DataTable
        caption="Events, newest first"
        columns={EVENT_COLUMNS}
        rows={listed.data?.events}
        rowKey={(event) => event.id}
        empty="No events yet."
      />
      {pages.controls(listed.data?.nextCursor)}
    </>
  );
}
