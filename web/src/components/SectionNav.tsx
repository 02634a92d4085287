// The section list of a page with sections (settings, administration): links to #page/section.
export interface Section { id: string; label: string }

export function SectionNav({ page, sections, current, label }: { page: string; sections: readonly Section[]; current: string; label: string }) {
  return (
    <nav class="section-nav" aria-label={label}>
      <ul>
        {sections.map((s) => (
          <li key={s.id}><a href={`#${page}/${s.id}`} aria-current={s.id === current ? 'page' : undefined}>{s.label}</a></li>
        ))}
      </ul>
    </nav>
  );
}

/** A checkbox that saves itself. */
export function Toggle({ name, label, checked, onChange }: { name: string; label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label class="inline">
      <input type="checkbox" name={name} checked={checked} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} /> {label}
    </label>
  );
}
