import type { LegalDoc } from '../../../../api/contract/legal.js';

/** The terms or the privacy notice: drawn by the app and, for a visitor's first paint, by the server (api/src/sharing/pages.tsx). */
export function LegalView({ doc }: { doc: LegalDoc }) {
  return (
    <article className="legal" aria-labelledby="legal-title">
      <header className="page-header">
        <h1 id="legal-title">{doc.title}</h1>
        <p className="muted small">Last changed {doc.updated}</p>
      </header>
      {doc.sections.map((section) => (
        <section key={section.heading} className="legal__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
