import type { AdminApi } from '../api.js';
import { ErrorNote, usePages, when } from '../parts.js';
import { useLoad } from '../useLoad.js';

/** The recorded events, newest first, with the payload their webhooks carry. */
export function Events({ api }: { api: AdminApi }) {
  const pages = usePages();
  const listed = useLoad(() => api.listEvents(pages.cursor), [pages.cursor]);
  return (
    <>
      <h1>Events</h1>
      <ErrorNote error={listed.error} />
      <table>
        <caption>Events, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Id</th>
            <th scope="col">Type</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {listed.data?.events.map((event) => (
            <tr key={event.id}>
              <td>{when(event.timestamp)}</td>
              <td>{event.id}</td>
              <td>{event.type}</td>
              <td>
                <code>{JSON.stringify(event.data)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {listed.data?.events.length === 0 && <p>No events yet.</p>}
      {pages.controls(listed.data?.nextCursor)}
    </>
  );
}
