// Styles are bundled by esbuild into the page's stylesheet.
declare module '*.css';
