// Types for @hyperjump/uri-template 0.3 (the package ships none): RFC 6570 parse and expand.
declare module '@hyperjump/uri-template' {
  namespace UriTemplate {
    interface Variable {
      name: string;
      explode: boolean;
      maxLength: number | undefined;
    }
    type Node = { type: 'literal'; value: string } | { type: '' | '+' | '#' | '.' | '/' | ';' | '?' | '&'; variables: Variable[] };
    type Template = Node[];
  }
  const UriTemplate: {
    /** Throws an Error ("Parse Error: ...") when the text is not an RFC 6570 (level 4) template. */
    parse(template: string): UriTemplate.Template;
    expand(template: UriTemplate.Template | string, values?: Record<string, unknown>): string;
    stringify(template: UriTemplate.Template): string;
  };
  export = UriTemplate;
}
