// The admin token, kept for this tab only (sessionStorage: gone when the tab closes, never sent by the browser on
// its own as a cookie would be).
const TOKEN = 'petstore-console-token';

export const savedToken = (): string | null => sessionStorage.getItem(TOKEN);
export const saveToken = (token: string): void => sessionStorage.setItem(TOKEN, token);
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN);
