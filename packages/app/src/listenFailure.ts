/** The settings behind one listening socket: `PORT` (or `METRICS_PORT`, `ADMIN_PORT`) and `HOST` (or `METRICS_HOST`, `ADMIN_HOST`). */
export interface ListenSetting {
  variable: 'PORT' | 'METRICS_PORT' | 'ADMIN_PORT';
  port: number;
  host: string;
  /** Default `HOST`. */
  hostVariable?: 'HOST' | 'METRICS_HOST' | 'ADMIN_HOST';
}

/**
 * Why a socket could not listen, in one line that names the setting to change and what to do. Node's own message
 * (`listen EADDRINUSE: address already in use 127.0.0.1:3000`) names neither. An error it does not know is returned
 * as it is.
 */
export function listenFailure(error: unknown, { variable, port, host, hostVariable = 'HOST' }: ListenSetting): unknown {
  const where = `${variable}=${port} ${hostVariable}=${host}`;
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return new Error(
        `${where}: port ${port} is already in use on ${host} (another petstore server?). ` +
          `Stop what holds it, or set ${variable} to a free port (${variable}=0: any free port).`,
      );
    case 'EACCES':
      return new Error(`${where}: this user may not listen on port ${port} (ports below 1024 need privileges). Choose ${variable}=1024 or above.`);
    case 'EADDRNOTAVAIL':
      return new Error(
        `${where}: ${host} is not an address of this machine. Set ${hostVariable}=127.0.0.1 (this machine only) or ${hostVariable}=0.0.0.0 (every interface).`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Error(`${where}: the host name ${host} does not resolve. Set ${hostVariable} to an IP address of this machine, such as 127.0.0.1.`);
    default:
      return error;
  }
}
