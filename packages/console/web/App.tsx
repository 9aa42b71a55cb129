import { useMemo, useState } from 'preact/hooks';
import { AdminApi } from './api.js';
import { href, useRoute } from './route.js';
import { forgetToken, savedToken, saveToken } from './session.js';
import { SignIn } from './pages/SignIn.js';
import { Overview } from './pages/Overview.js';
import { Animals } from './pages/Animals.js';
import { Animal } from './pages/Animal.js';
import { Keys } from './pages/Keys.js';
import { Key } from './pages/Key.js';
import { Webhooks } from './pages/Webhooks.js';
import { Endpoint } from './pages/Endpoint.js';
import { Events } from './pages/Events.js';

const SECTIONS = [
  ['overview', 'Overview'],
  ['animals', 'Animals'],
  ['keys', 'Keys'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
] as const;

export function App() {
  const [token, setToken] = useState(savedToken);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  const api = useMemo(
    () =>
      token === null
        ? null
        : new AdminApi(token, () => {
            forgetToken();
            setToken(null);
            setNotice('The admin token was refused: sign in again.');
          }),
    [token],
  );

  if (api === null) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(given) => {
          saveToken(given);
          setNotice(null);
          setToken(given);
        }}
      />
    );
  }
  const [section = 'overview', id] = route;
  return (
    <>
      <header>
        <span class="brand">Pet store console</span>
        <nav aria-label="Sections">
          {SECTIONS.map(([name, title]) => (
            <a key={name} href={href(name)} aria-current={section === name ? 'page' : undefined}>
              {title}
            </a>
          ))}
        </nav>
        <button
          type="button"
          onClick={() => {
            forgetToken();
            setToken(null);
            setNotice('Signed out.');
          }}
        >
          Sign out
        </button>
      </header>
      <main>{page(api, section, id)}</main>
    </>
  );
}

function page(api: AdminApi, section: string, id: string | undefined) {
  switch (section) {
    case 'animals':
      return id === undefined ? <Animals api={api} /> : <Animal api={api} id={Number(id)} />;
    case 'keys':
      return id === undefined ? <Keys api={api} /> : <Key api={api} id={id} />;
    case 'webhooks':
      return id === undefined ? <Webhooks api={api} /> : <Endpoint api={api} id={id} />;
    case 'events':
      return <Events api={api} />;
    default:
      return <Overview api={api} />;
  }
}
