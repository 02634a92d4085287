// Types for mime-types 2.1 (the package ships none): the MIME type a file name's extension stands for.
declare module 'mime-types' {
  /** The type for a path or extension, or false when the extension is unknown. */
  export function lookup(path: string): string | false;
}
